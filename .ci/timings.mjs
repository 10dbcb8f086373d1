// Prints where a CI run spent its time: each step's duration (the tab-separated "name<TAB>seconds" lines .ci/run
// appended to its steps file), the tests of each vitest pass (vitest's JSON reports, one per pass, named
// "<pass>.json"), each pass's file time by folder, and the 20 slowest test files of all passes.
// Usage: node .ci/timings.mjs STEPS_FILE REPORTS_DIR
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

const [stepsFile, reportsDir] = process.argv.slice(2);
const minutes = (seconds) => `${(seconds / 60).toFixed(1).padStart(5)} min`;

console.log('\n==> Where the time went');
if (stepsFile && existsSync(stepsFile)) {
  let total = 0;
  for (const line of readFileSync(stepsFile, 'utf8').split('\n').filter(Boolean)) {
    const [name, seconds] = line.split('\t');
    total += Number(seconds);
    console.log(`${minutes(Number(seconds))}  ${name}`);
  }
  console.log(`${minutes(total)}  in all`);
}

/** A test file's path inside the repository, for the clone (the working directory) and its copy (…/deckforge/). */
function repositoryPath(path) {
  if (path.startsWith(`${process.cwd()}/`)) return relative(process.cwd(), path);
  const copy = path.indexOf('/deckforge/');
  return copy === -1 ? path : path.slice(copy + '/deckforge/'.length);
}

const files = [];
const reports =
  reportsDir && existsSync(reportsDir) ? readdirSync(reportsDir).filter((f) => f.endsWith('.json')) : [];
if (reports.length > 0) console.log('\nTests per pass (passed / failed / skipped or filtered out / files):');
for (const report of reports.sort()) {
  const pass = basename(report, '.json');
  const json = JSON.parse(readFileSync(join(reportsDir, report), 'utf8'));
  const skipped = json.numPendingTests + json.numTodoTests;
  console.log(
    `  ${pass}: ${json.numPassedTests} / ${json.numFailedTests} / ${skipped} / ${json.testResults.length} files`,
  );
  for (const file of json.testResults) {
    files.push({ pass, name: repositoryPath(file.name), seconds: (file.endTime - file.startTime) / 1000 });
  }
}
if (files.length > 0) {
  // A folder's files run side by side with others', so their seconds add up to more than the pass's duration.
  console.log('\nFile time of each pass by folder (minutes, files):');
  const byFolder = new Map();
  for (const file of files) {
    const key = `${file.pass}\t${file.name.split('/').slice(0, 2).join('/')}`;
    const sum = byFolder.get(key) ?? { seconds: 0, files: 0 };
    byFolder.set(key, { seconds: sum.seconds + file.seconds, files: sum.files + 1 });
  }
  for (const [key, sum] of [...byFolder].sort((a, b) => a[0].localeCompare(b[0]))) {
    const [pass, folder] = key.split('\t');
    console.log(`${minutes(sum.seconds)}  ${String(sum.files).padStart(3)}  ${pass.padEnd(20)}  ${folder}`);
  }
  console.log('\nThe 20 slowest test files (seconds, pass, file):');
  for (const file of files.sort((a, b) => b.seconds - a.seconds).slice(0, 20)) {
    console.log(`${file.seconds.toFixed(1).padStart(7)}  ${file.pass.padEnd(12)}  ${file.name}`);
  }
}
