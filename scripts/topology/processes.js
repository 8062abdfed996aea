// Starting, finding and stopping the topology's processes. A process is
// only ever signalled by its own PID, and only while that PID still listens
// on the port recorded for it, or, for one that never got as far as
// listening, while it still has the start time recorded with it: a PID the
// kernel has since given to another program is left alone.
const { spawn } = require('node:child_process');
const {
  closeSync,
  openSync,
  readFileSync,
  readdirSync,
  readlinkSync,
} = require('node:fs');
const net = require('node:net');

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Ports free on 127.0.0.1 right now, all different. */
async function freePorts(count) {
  const servers = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = net.createServer();
      await new Promise((resolve, reject) =>
        server.once('error', reject).listen(0, '127.0.0.1', resolve),
      );
      servers.push(server);
    }
    return servers.map((server) => server.address().port);
  } finally {
    await Promise.all(
      servers.map((server) => new Promise((resolve) => server.close(resolve))),
    );
  }
}

/** The uid and gid PostgreSQL must run as: postgres when we are root (it refuses root), else ourselves. */
function postgresUser() {
  if (process.getuid() !== 0) return {};
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  if (!line)
    throw new Error(
      'running as root, but there is no postgres user to run PostgreSQL as',
    );
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** Runs a command to its end; rejects with its output when it fails. */
function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      ...options,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0
        ? resolve(output)
        : reject(
            new Error(
              `${command} ${args.join(' ')} failed (${code}):\n${output}`,
            ),
          ),
    );
  });
}

// Set once the topology is being stopped: nothing may start after `down` has read the state.
let refusing = false;
const refuseNewProcesses = () => (refusing = true);

/**
 * Starts a long-running process in its own process group (so that Ctrl-C in
 * the terminal reaches only the script, which then stops everything in
 * order), its output appended to `log`. The returned child reports `exited`.
 */
function startDetached(command, args, { log, env, uid, gid }) {
  if (refusing)
    throw new Error(`not starting ${command}: the topology is being stopped`);
  const fd = openSync(log, 'a');
  try {
    const child = spawn(command, args, {
      env,
      uid,
      gid,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    child.exited = false;
    child.once('exit', () => (child.exited = true));
    child.startTime = startTime(child.pid);
    child.unref();
    return child;
  } finally {
    closeSync(fd);
  }
}

/** The fields of /proc/<pid>/stat after the command name, or null when there is no such process. */
function stat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Whether `pid` is a live process (a zombie counts as gone). */
function isAlive(pid) {
  const fields = stat(pid);
  return fields !== null && fields[0] !== 'Z';
}

/** When the process started, in clock ticks since boot: with the PID, it names one process for good. */
const startTime = (pid) => stat(pid)?.[19] ?? null;

/** TCP sockets of this network namespace: local and remote port, state, inode. */
function sockets() {
  const rows = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      rows.push({
        localPort: parseInt(fields[1].split(':')[1], 16),
        remotePort: parseInt(fields[2].split(':')[1], 16),
        listening: fields[3] === '0A',
        established: fields[3] === '01',
        inode: fields[9],
      });
    }
  }
  return rows;
}

/** Inodes of the sockets `pid` holds open. */
function socketInodes(pid) {
  const inodes = new Set();
  let fds;
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(
        readlinkSync(`/proc/${pid}/fd/${fd}`),
      );
      if (match) inodes.add(match[1]);
    } catch {
      // The descriptor was closed while we looked.
    }
  }
  return inodes;
}

function listensOn(pid, port) {
  const held = socketInodes(pid);
  return sockets().some(
    (s) => s.listening && s.localPort === port && held.has(s.inode),
  );
}

/** Local ports of the connections `pid` holds open to `remotePort`. */
function connectionsTo(pid, remotePort) {
  const held = socketInodes(pid);
  return sockets()
    .filter(
      (s) => s.established && s.remotePort === remotePort && held.has(s.inode),
    )
    .map((s) => s.localPort);
}

async function waitForExit(pid, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops the process recorded as `entry` ({ role, pid, startTime, port,
 * stopSignal }). Returns what happened, for the caller to print. A process
 * that is gone already is fine (stopping is idempotent); a PID that neither
 * listens on the port nor has the recorded start time is another program's
 * now and is not touched.
 */
async function stopProcess(entry, timeoutMs = 10_000) {
  const { role, pid, port } = entry;
  if (!isAlive(pid))
    return { stopped: true, note: `${role} (pid ${pid}) was not running` };
  const listening = listensOn(pid, port);
  if (!listening && startTime(pid) !== entry.startTime)
    return {
      stopped: false,
      note: `${role}: pid ${pid} is another process now (not on port ${port}); left alone`,
    };
  const what = `${role} (pid ${pid}, ${listening ? `port ${port}` : `not listening on port ${port}`})`;
  process.kill(pid, entry.stopSignal ?? 'SIGTERM');
  // A process held by SIGSTOP would only act on the signal once continued.
  process.kill(pid, 'SIGCONT');
  if (await waitForExit(pid, timeoutMs))
    return { stopped: true, note: `${what} stopped` };
  process.kill(pid, 'SIGKILL');
  await waitForExit(pid, 5_000);
  return {
    stopped: !isAlive(pid),
    note: `${what} killed after ${timeoutMs} ms`,
  };
}

/** Sends `signal` to a recorded process after checking it is still the one listening on its port. */
function signalProcess(entry, signal) {
  if (!isAlive(entry.pid) || !listensOn(entry.pid, entry.port))
    throw new Error(
      `${entry.role} (pid ${entry.pid}) is not listening on port ${entry.port}`,
    );
  process.kill(entry.pid, signal);
}

/** Polls `probe` until it returns a truthy value; fails when `child` exits or time runs out. */
async function waitFor(what, probe, { timeoutMs = 30_000, child, log } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const result = await probe().catch(() => undefined);
    if (result) return result;
    const tail = () => (log ? `\n--- ${log} (end) ---\n${readTail(log)}` : '');
    if (child?.exited) throw new Error(`${what}: the process exited${tail()}`);
    if (Date.now() > deadline)
      throw new Error(`${what}: not ready after ${timeoutMs} ms${tail()}`);
    await sleep(100);
  }
}

function readTail(file, lines = 20) {
  try {
    return readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .join('\n');
  } catch {
    return '(no log)';
  }
}

module.exports = {
  connectionsTo,
  freePorts,
  postgresUser,
  refuseNewProcesses,
  run,
  signalProcess,
  sleep,
  startDetached,
  stopProcess,
  waitFor,
  waitForExit,
};
