#!/usr/bin/env node
// OpenSearch for the workbench, from Maven Central alone (docs/opensearch.md):
//   npm run opensearch -- start [--nodes 1|2] [--port 9200] [--heap 512m]
//   npm run opensearch -- stop | status
// The first start fetches the artifacts with Maven (cached in ~/.m2) and assembles a node home in .opensearch/
// (git-ignored); each start writes one folder per node (config, data, logs) and runs it on 127.0.0.1. OpenSearch
// refuses to run as root: root runs it as the unprivileged user `dsw-opensearch` (created when missing).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

export const OPENSEARCH_VERSION = '2.19.1';
const KNN_VERSION = '2.19.1.0';
const RUN_USER = 'dsw-opensearch';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Where this checkout keeps what it started (read by `stop`). */
const STATE_DIR = path.join(ROOT, '.opensearch');
const STATE_FILE = path.join(STATE_DIR, 'running.json');

/** The node modules not in the integration-test zip, published as jars: assembled with a hand-written descriptor. */
const MODULES = [
  {
    name: 'lang-painless',
    classname: 'org.opensearch.painless.PainlessPlugin',
    description: 'An easy, safe and fast scripting language for OpenSearch',
    extended: '',
    policy: 'grant {\n  permission java.lang.RuntimePermission "createClassLoader";\n  permission java.lang.RuntimePermission "getClassLoader";\n};\n',
  },
  {
    name: 'analysis-common',
    classname: 'org.opensearch.analysis.common.CommonAnalysisPlugin',
    description: 'Adds "built in" analyzers to OpenSearch.',
    extended: 'lang-painless',
    policy: null,
  },
];

/** Where the assembled home and node folders go: .opensearch/, or a temp folder when the run user cannot reach it. */
function workDir(runAs) {
  if (process.env.DSW_OPENSEARCH_DIR) return path.resolve(process.env.DSW_OPENSEARCH_DIR);
  if (!runAs || canReach(runAs, ROOT)) return STATE_DIR;
  // e.g. a clone under /root (mode 700): the unprivileged user cannot enter it.
  const hash = createHash('sha256').update(ROOT).digest('hex').slice(0, 10);
  return path.join(os.tmpdir(), `dsw-opensearch-${hash}`);
}

function canReach(user, dir) {
  return spawnSync('test', ['-x', dir], { uid: user.uid, gid: user.gid }).status === 0;
}

function log(message) {
  process.stderr.write(`opensearch: ${message}\n`);
}

function mvn(args, cwd) {
  try {
    execFileSync('mvn', ['-q', '-B', ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const out = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(`mvn ${args.join(' ')} failed${error.code === 'ENOENT' ? ': Maven (mvn) is not installed' : ''}\n${out}`);
  }
}

function m2Repository() {
  return path.join(os.homedir(), '.m2', 'repository');
}

function artifactPath(group, artifact, version, type) {
  return path.join(m2Repository(), ...group.split('.'), artifact, version, `${artifact}-${version}.${type}`);
}

/** Fetches an artifact into ~/.m2 unless it is there; returns its path. */
function fetchArtifact(group, artifact, version, type) {
  const file = artifactPath(group, artifact, version, type);
  if (!fs.existsSync(file)) {
    log(`fetching ${group}:${artifact}:${version}:${type} from Maven Central…`);
    mvn(['dependency:get', `-Dartifact=${group}:${artifact}:${version}:${type}`, '-Dtransitive=false']);
  }
  return file;
}

function unzipInto(zipFile, dir, stripFirst) {
  const entries = unzipSync(fs.readFileSync(zipFile));
  for (const [name, data] of Object.entries(entries)) {
    const relative = stripFirst ? name.split('/').slice(1).join('/') : name;
    if (!relative) continue;
    const target = path.join(dir, relative);
    if (!target.startsWith(dir + path.sep)) throw new Error(`${zipFile}: entry ${name} points outside its folder`);
    if (name.endsWith('/')) {
      fs.mkdirSync(target, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, data);
  }
}

function descriptor(module) {
  return [
    `description=${module.description}`,
    `version=${OPENSEARCH_VERSION}`,
    `name=${module.name}`,
    `classname=${module.classname}`,
    'java.version=11',
    `opensearch.version=${OPENSEARCH_VERSION}`,
    `custom.foldername=${module.name}`,
    `extended.plugins=${module.extended}`,
    'has.native.controller=false',
    '',
  ].join('\n');
}

/** The node home (distribution + analysis-common + lang-painless + k-NN), assembled once per work folder. */
function assembleHome(dir) {
  const home = path.join(dir, `home-${OPENSEARCH_VERSION}`);
  if (fs.existsSync(path.join(home, '.assembled'))) return home;
  const started = Date.now();
  fs.rmSync(home, { recursive: true, force: true });
  const tmp = `${home}.partial`;
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  unzipInto(fetchArtifact('org.opensearch.distribution.integ-test-zip', 'opensearch', OPENSEARCH_VERSION, 'zip'), tmp, true);
  for (const file of fs.readdirSync(path.join(tmp, 'bin'))) fs.chmodSync(path.join(tmp, 'bin', file), 0o755);
  const inLib = new Set(fs.readdirSync(path.join(tmp, 'lib')));
  for (const module of MODULES) {
    const build = path.join(dir, 'maven', module.name);
    fs.mkdirSync(build, { recursive: true });
    fs.writeFileSync(
      path.join(build, 'pom.xml'),
      `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion><groupId>dsw</groupId><artifactId>${module.name}-deps</artifactId><version>1</version><packaging>pom</packaging>` +
        `<dependencies><dependency><groupId>org.opensearch.plugin</groupId><artifactId>${module.name}</artifactId><version>${OPENSEARCH_VERSION}</version></dependency></dependencies></project>\n`,
    );
    log(`fetching module ${module.name} and its runtime dependencies…`);
    const jars = path.join(build, 'jars');
    fs.rmSync(jars, { recursive: true, force: true });
    mvn(['dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${jars}`], build);
    const target = path.join(tmp, 'modules', module.name);
    fs.mkdirSync(target, { recursive: true });
    for (const jar of fs.readdirSync(jars)) {
      // A jar the server already has would be loaded twice (jar hell).
      if (inLib.has(jar)) continue;
      fs.copyFileSync(path.join(jars, jar), path.join(target, jar));
    }
    fs.writeFileSync(path.join(target, 'plugin-descriptor.properties'), descriptor(module));
    if (module.policy) fs.writeFileSync(path.join(target, 'plugin-security.policy'), module.policy);
  }
  // lang-painless's own dependencies are loaded by its class loader; analysis-common extends it and must not repeat them.
  const painless = new Set(fs.readdirSync(path.join(tmp, 'modules', 'lang-painless')));
  for (const jar of fs.readdirSync(path.join(tmp, 'modules', 'analysis-common'))) {
    if (jar.endsWith('.jar') && painless.has(jar)) fs.rmSync(path.join(tmp, 'modules', 'analysis-common', jar));
  }
  unzipInto(fetchArtifact('org.opensearch.plugin', 'opensearch-knn', KNN_VERSION, 'zip'), path.join(tmp, 'plugins', 'opensearch-knn'), false);
  fs.writeFileSync(path.join(tmp, '.assembled'), `${new Date().toISOString()}\n`);
  fs.renameSync(tmp, home);
  log(`node home assembled in ${((Date.now() - started) / 1000).toFixed(0)} s: ${home}`);
  return home;
}

/** Root cannot run OpenSearch: the unprivileged user it runs as (created when missing); null when not root. */
function runUser() {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => spawnSync('id', ['-u', RUN_USER], { encoding: 'utf8' });
  if (lookup().status !== 0) {
    log(`creating the unprivileged user ${RUN_USER} (OpenSearch refuses to run as root)`);
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', RUN_USER], { stdio: 'inherit' });
  }
  const uid = Number(lookup().stdout.trim());
  const gid = Number(spawnSync('id', ['-g', RUN_USER], { encoding: 'utf8' }).stdout.trim());
  return { name: RUN_USER, uid, gid };
}

function javaHome() {
  const given = process.env.OPENSEARCH_JAVA_HOME || process.env.JAVA_HOME;
  if (given) return given;
  const java = spawnSync('sh', ['-c', 'command -v java'], { encoding: 'utf8' }).stdout.trim();
  if (!java) throw new Error('No Java found: install Java 17 (or set JAVA_HOME)');
  return path.dirname(path.dirname(fs.realpathSync(java)));
}

function readState() {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch {
    return { clusters: [] };
  }
}

function writeState(state) {
  fs.mkdirSync(STATE_DIR, { recursive: true });
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

async function health(url, nodes, waitSeconds = 1) {
  try {
    const response = await fetch(`${url}/_cluster/health?wait_for_status=yellow&wait_for_nodes=${nodes}&timeout=${waitSeconds}s`, {
      signal: AbortSignal.timeout((waitSeconds + 4) * 1000),
    });
    if (!response.ok) return null;
    const body = await response.json();
    return body.timed_out ? null : body;
  } catch {
    return null;
  }
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function parseHeap(heap) {
  if (!/^\d+[mg]$/i.test(heap)) throw new Error(`--heap must look like 512m or 1g, got "${heap}"`);
  return heap.toLowerCase();
}

/**
 * Starts a node (or a cluster of `nodes` nodes on ports port, port+1; transport port+100, …) and resolves once the
 * cluster is yellow or green. A cluster of this checkout already running on that port is reused.
 */
export async function startOpenSearch({ nodes = 1, port = 9200, heap = '512m', timeoutSeconds = 240 } = {}) {
  if (![1, 2].includes(nodes)) throw new Error(`--nodes must be 1 or 2, got ${nodes}`);
  heap = parseHeap(heap);
  const url = `http://127.0.0.1:${port}`;
  const state = readState();
  const known = state.clusters.find((c) => c.port === port);
  if (known && known.nodes.every((n) => alive(n.pid)) && (await health(url, known.nodes.length))) {
    if (known.nodes.length !== nodes) throw new Error(`A ${known.nodes.length}-node cluster already runs on ${url}; stop it first (npm run opensearch -- stop)`);
    log(`already running: ${url}`);
    return { url, nodes, reused: true, seconds: 0 };
  }
  if (await health(url, 1)) throw new Error(`Something already answers on ${url} (not started from this checkout); choose another --port`);
  const started = Date.now();
  const user = runUser();
  const dir = workDir(user);
  const home = assembleHome(dir);
  const java = javaHome();
  const clusterDir = path.join(dir, `cluster-${port}`);
  fs.rmSync(clusterDir, { recursive: true, force: true });
  const names = Array.from({ length: nodes }, (_, i) => `node-${i + 1}`);
  const transports = names.map((_, i) => port + 100 + i);
  const running = [];
  for (let i = 0; i < nodes; i++) {
    const nodeDir = path.join(clusterDir, names[i]);
    const config = path.join(nodeDir, 'config');
    fs.mkdirSync(config, { recursive: true });
    fs.copyFileSync(path.join(home, 'config', 'log4j2.properties'), path.join(config, 'log4j2.properties'));
    // jvm.options names logs/ and data/ relative to the home, which the run user cannot write: point them here.
    const jvmOptions = fs
      .readFileSync(path.join(home, 'config', 'jvm.options'), 'utf8')
      .replaceAll('file=logs/', `file=${nodeDir}/logs/`)
      .replaceAll('-XX:ErrorFile=logs/', `-XX:ErrorFile=${nodeDir}/logs/`)
      .replaceAll('-XX:HeapDumpPath=data', `-XX:HeapDumpPath=${nodeDir}/data`);
    fs.writeFileSync(path.join(config, 'jvm.options'), jvmOptions);
    fs.mkdirSync(path.join(config, 'jvm.options.d'), { recursive: true });
    fs.writeFileSync(path.join(config, 'jvm.options.d', 'heap.options'), `-Xms${heap}\n-Xmx${heap}\n`);
    const settings = [
      `cluster.name: dsw-${port}`,
      `node.name: ${names[i]}`,
      'network.host: 127.0.0.1',
      `http.port: ${port + i}`,
      `transport.port: ${transports[i]}`,
      `path.data: ${path.join(nodeDir, 'data')}`,
      `path.logs: ${path.join(nodeDir, 'logs')}`,
      ...(nodes === 1
        ? ['discovery.type: single-node']
        : [
            `discovery.seed_hosts: [${transports.map((p) => `"127.0.0.1:${p}"`).join(', ')}]`,
            `cluster.initial_cluster_manager_nodes: [${names.map((n) => `"${n}"`).join(', ')}]`,
          ]),
      // Disk watermarks would stop allocating shards on a nearly full development disk.
      'cluster.routing.allocation.disk.threshold_enabled: false',
      '',
    ];
    fs.writeFileSync(path.join(config, 'opensearch.yml'), settings.join('\n'));
    for (const sub of ['data', 'logs', 'tmp']) fs.mkdirSync(path.join(nodeDir, sub), { recursive: true });
    if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, nodeDir]);
    const out = fs.openSync(path.join(nodeDir, 'logs', 'console.log'), 'a');
    if (user) fs.fchownSync(out, user.uid, user.gid);
    const child = spawn(path.join(home, 'bin', 'opensearch'), ['-p', path.join(nodeDir, 'opensearch.pid')], {
      cwd: nodeDir,
      detached: true,
      stdio: ['ignore', out, out],
      ...(user ? { uid: user.uid, gid: user.gid } : {}),
      env: {
        PATH: process.env.PATH,
        HOME: nodeDir,
        OPENSEARCH_JAVA_HOME: java,
        OPENSEARCH_PATH_CONF: config,
        OPENSEARCH_TMPDIR: path.join(nodeDir, 'tmp'),
        OPENSEARCH_JAVA_OPTS: `-Xms${heap} -Xmx${heap}`,
      },
    });
    fs.closeSync(out);
    child.unref();
    running.push({ name: names[i], pid: child.pid, http: port + i, transport: transports[i], dir: nodeDir, exited: null });
    child.on('exit', (code, signal) => (running[i].exited = signal ?? `code ${code}`));
  }
  state.clusters = state.clusters.filter((c) => c.port !== port);
  state.clusters.push({ port, url, nodes: running.map(({ name, pid, http, dir: nodeDir }) => ({ name, pid, http, dir: nodeDir })), heap, startedAt: new Date().toISOString() });
  writeState(state);
  log(`starting ${nodes} node(s) (heap ${heap}${user ? `, as ${user.name}` : ''}) on ${url}…`);
  const deadline = Date.now() + timeoutSeconds * 1000;
  while (Date.now() < deadline) {
    const dead = running.find((n) => n.exited);
    if (dead) {
      await stopOpenSearch({ port, quiet: true });
      throw new Error(`OpenSearch ${dead.name} exited (${dead.exited}) before the cluster was up. Its log:\n${tail(path.join(dead.dir, 'logs', 'console.log'))}`);
    }
    if (await health(url, nodes, 2)) {
      const seconds = (Date.now() - started) / 1000;
      log(`up in ${seconds.toFixed(0)} s: ${url}`);
      return { url, nodes, reused: false, seconds };
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await stopOpenSearch({ port, quiet: true });
  throw new Error(`OpenSearch did not become healthy within ${timeoutSeconds} s. The log of node-1:\n${tail(path.join(running[0].dir, 'logs', 'console.log'))}`);
}

/** Stops the nodes this checkout started (all, or those of one port) and waits until they are gone. */
export async function stopOpenSearch({ port, quiet = false } = {}) {
  const state = readState();
  const stopping = state.clusters.filter((c) => port === undefined || c.port === port);
  const pids = stopping.flatMap((c) => c.nodes.map((n) => pidOf(n))).filter((pid) => pid && alive(pid));
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 30_000;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250));
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  state.clusters = state.clusters.filter((c) => !stopping.includes(c));
  writeState(state);
  if (!quiet) log(stopping.length === 0 ? 'nothing to stop' : `stopped ${stopping.map((c) => c.url).join(', ')}`);
}

function pidOf(node) {
  // The pid file is the JVM's own; the spawned script usually exec()s into it, but prefer what the JVM wrote.
  try {
    return Number(fs.readFileSync(path.join(node.dir, 'opensearch.pid'), 'utf8').trim()) || node.pid;
  } catch {
    return node.pid;
  }
}

function parseArgs(argv) {
  const [command, ...rest] = argv;
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].split('=', 2);
    const value = inline ?? rest[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === '--nodes') options.nodes = Number(value);
    else if (flag === '--port') options.port = Number(value);
    else if (flag === '--heap') options.heap = value;
    else throw new Error(`unknown option ${flag}; usage: npm run opensearch -- start [--nodes 1|2] [--port 9200] [--heap 512m] | stop [--port 9200] | status`);
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65000)) throw new Error('--port must be a port number');
  return { command, options };
}

async function cli() {
  const { command, options } = parseArgs(process.argv.slice(2));
  if (command === 'start') {
    const { url } = await startOpenSearch(options);
    process.stdout.write(`${url}\n`);
  } else if (command === 'stop') {
    await stopOpenSearch(options);
  } else if (command === 'status') {
    const state = readState();
    for (const c of state.clusters) {
      const up = await health(c.url, c.nodes.length);
      process.stdout.write(`${c.url} ${c.nodes.length} node(s) ${up ? up.status : 'not answering'}\n`);
    }
    if (state.clusters.length === 0) process.stdout.write('none running\n');
  } else {
    throw new Error('usage: npm run opensearch -- start [--nodes 1|2] [--port 9200] [--heap 512m] | stop [--port 9200] | status');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((error) => {
    log(error.message);
    process.exit(1);
  });
}
