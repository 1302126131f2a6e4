// Fails when a `case` label in web/src/sockets/ is a number (npm run check): what an event id
// means is data (schema/winsock-semantics.json → generated/afd-semantics.ts), and the tracker
// dispatches on roles, never on bare ids. Labels are found by parsing, so numbers in comments,
// strings and other expressions do not count.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface NumericCase {
	readonly file: string;
	/** 1-based. */
	readonly line: number;
	readonly label: string;
}

/** A numeric literal, possibly negated or in parentheses. */
function isNumber(e: ts.Expression): boolean {
	if (ts.isParenthesizedExpression(e)) return isNumber(e.expression);
	if (ts.isPrefixUnaryExpression(e)) return isNumber(e.operand);
	return ts.isNumericLiteral(e);
}

/** The numeric `case` labels of one TypeScript source. */
export function numericCases(source: string, file: string): NumericCase[] {
	const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
	const out: NumericCase[] = [];
	const visit = (node: ts.Node): void => {
		if (ts.isCaseClause(node) && isNumber(node.expression)) {
			const { line } = sf.getLineAndCharacterOfPosition(node.expression.getStart(sf));
			out.push({ file, line: line + 1, label: node.expression.getText(sf) });
		}
		ts.forEachChild(node, visit);
	};
	visit(sf);
	return out;
}

function tsFiles(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
		d.isDirectory()
			? tsFiles(join(dir, d.name))
			: d.name.endsWith('.ts')
				? [join(dir, d.name)]
				: [],
	);
}

/** The numeric `case` labels of every .ts file under `dir`. */
export function numericCasesIn(dir: string, root: string): NumericCase[] {
	return tsFiles(dir).flatMap((f) => numericCases(readFileSync(f, 'utf8'), relative(root, f)));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	const root = join(dirname(fileURLToPath(import.meta.url)), '..');
	const found = numericCasesIn(join(root, 'web/src/sockets'), root);
	for (const c of found)
		console.error(
			`${c.file}:${c.line}: case ${c.label}: dispatch on the event's role (afd-roles.ts)`,
		);
	if (found.length) process.exit(1);
}
