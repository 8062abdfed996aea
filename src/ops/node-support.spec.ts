// scripts/check-node.js: the Node.js versions `npm install`, `npm start` and
// the other scripts accept, read from package.json's engines.
const { supports } = require('../../scripts/check-node') as {
  supports: (version: string, range: string) => boolean;
};
const { engines } = require('../../package.json') as {
  engines: { node: string };
};

describe('the supported Node.js versions', () => {
  it.each([
    ['18.20.8', false],
    ['20.20.2', false],
    ['22.12.0', false],
    ['22.22.2', false],
    ['22.22.3', true],
    ['22.23.3', true],
    ['23.11.0', false],
    ['24.10.0', false],
    ['24.11.0', true],
    ['24.21.0', true],
    ['26.1.0', true],
  ])('%s: %s', (version, supported) => {
    expect(supports(version, engines.node)).toBe(supported);
  });

  it('include the one .nvmrc names', () => {
    const nvmrc = require('node:fs')
      .readFileSync(`${__dirname}/../../.nvmrc`, 'utf8')
      .trim();
    expect(supports(nvmrc, engines.node)).toBe(true);
  });
});
