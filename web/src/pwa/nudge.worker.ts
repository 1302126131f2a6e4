// A worker that does nothing but say it has loaded. Its script is requested like a page: that is
// what makes Chromium look at the registration again when a new version waits to take over
// (take-over.ts says why "Reload" needs it).
postMessage('loaded');
