// What the fixture checks (check-boundaries-fixture.mjs, check-doc-links-fixture.mjs) share: a check proves it still
// bites by reporting exactly the breaches its fixture holds on purpose, no fewer and no more.

/**
 * Exits 1, printing `header` and each difference, unless `found` holds exactly the `expected` breaches and there is
 * no `otherProblems` line (already indented) to print.
 */
export function failUnlessExactly(header, expected, found, otherProblems = []) {
  const problems = [
    ...expected.filter((breach) => !found.includes(breach)).map((breach) => `  not reported: ${breach}`),
    ...found.filter((breach) => !expected.includes(breach)).map((breach) => `  reported but not expected: ${breach}`),
    ...otherProblems,
  ];
  if (problems.length === 0) return;
  console.error(header);
  for (const problem of problems) console.error(problem);
  process.exit(1);
}
