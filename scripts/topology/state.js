// Where a running topology is written down. Its directory (a temporary one)
// holds the data, configuration, logs and `state.json`: every process with
// its role, PID and port, so that `down` and `check` work from another
// process than `up`. `.topology/env` in the project names that directory and
// the URLs, for people and scripts that want to use the topology.
const {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');

const PROJECT = resolve(__dirname, '..', '..');
const ENV_FILE = join(PROJECT, '.topology', 'env');

class Topology {
  constructor(state) {
    this.state = state;
  }

  /** A new, empty topology directory; PostgreSQL (another user) must be able to enter it. */
  static create() {
    const dir = mkdtempSync(join(tmpdir(), 'identity-topology-'));
    chmodSync(dir, 0o755);
    const topology = new Topology({ dir, ports: {}, urls: {}, processes: [] });
    topology.save();
    topology.writeEnv();
    return topology;
  }

  /** The topology `.topology/env` names, or null when there is none. */
  static load() {
    let env;
    try {
      env = readFileSync(ENV_FILE, 'utf8');
    } catch {
      return null;
    }
    const dir = /^TOPOLOGY_DIR=(.*)$/m.exec(env)?.[1];
    try {
      return new Topology(
        JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8')),
      );
    } catch {
      return null;
    }
  }

  static envFile() {
    return ENV_FILE;
  }

  get dir() {
    return this.state.dir;
  }

  path(...parts) {
    return join(this.state.dir, ...parts);
  }

  /** The recorded process with this role, if any. */
  process(role) {
    return this.state.processes.find((p) => p.role === role);
  }

  /** Records a process (replacing an earlier one of the same role) at once, before waiting on it. */
  record(entry) {
    this.state.processes = this.state.processes
      .filter((p) => p.role !== entry.role)
      .concat(entry);
    this.save();
  }

  forget(role) {
    this.state.processes = this.state.processes.filter((p) => p.role !== role);
    this.save();
  }

  save() {
    const file = this.path('state.json');
    writeFileSync(`${file}.new`, `${JSON.stringify(this.state, null, 2)}\n`);
    renameSync(`${file}.new`, file);
  }

  /** Writes `.topology/env` (sourceable by a shell) and returns its text. */
  writeEnv() {
    const { urls } = this.state;
    const lines = [
      `TOPOLOGY_DIR=${this.dir}`,
      ...['PRIMARY_URL', 'REPLICA_URL', 'PGBOUNCER_URL', 'REDIS_URL']
        .filter((name) => urls[name])
        .map((name) => `${name}=${urls[name]}`),
      ...(urls.SERVICE_URLS
        ? [`SERVICE_URLS="${urls.SERVICE_URLS.join(' ')}"`]
        : []),
    ];
    const text = `${lines.join('\n')}\n`;
    mkdirSync(join(PROJECT, '.topology'), { recursive: true });
    writeFileSync(ENV_FILE, text);
    return text;
  }

  /** Removes the directory and `.topology/env`. */
  remove() {
    rmSync(this.dir, { recursive: true, force: true });
    rmSync(ENV_FILE, { force: true });
  }
}

module.exports = { PROJECT, Topology };
