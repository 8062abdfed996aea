const { relative } = require('node:path');

const MARKS = { passed: '✓', failed: '✕', pending: '○', todo: '✎' };

/**
 * Prints each test's result as it finishes, so that a long run shows
 * progress; the default reporter still prints each file's result, its
 * failures and the summary.
 */
class ProgressReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    // Jest hands a test's result over with the first project's context, so
    // the project is taken from the file's start.
    this.projects = new Map();
    this.file = '';
  }

  onTestFileStart(test) {
    this.projects.set(test.path, test.context.config.displayName?.name ?? '');
  }

  onTestCaseResult(test, result) {
    // Named before its first result rather than when it starts: the next
    // file may start before the previous one's result is printed.
    const project = this.projects.get(test.path) ?? '';
    const file = `${project} ${relative(this.rootDir, test.path)}`;
    if (file !== this.file) {
      this.file = file;
      process.stderr.write(`${file}\n`);
    }
    const title = [...result.ancestorTitles, result.title].join(' › ');
    const time = result.duration == null ? '' : ` (${result.duration} ms)`;
    process.stderr.write(`  ${MARKS[result.status] ?? '?'} ${title}${time}\n`);
  }
}

module.exports = ProgressReporter;
