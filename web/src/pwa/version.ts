// The version this page was built as; the update test builds a second one to tell them apart.
export const APP_VERSION: string = __SOCKSCOPE_VERSION__;
