// Global setup of the system project only (jest.config.js): `npm test` (unit and e2e) needs Node and
// `npm ci`, nothing else. The system suites start Redis, Chromium and nginx and run the tutorial checker's
// tools; this setup apt-installs the Debian packages they need when they are missing and it can (root, apt),
// and otherwise stops the run with the list of what is missing and how to get it. Nothing is skipped,
// on CI (CI=true) or elsewhere. The services themselves are started and stopped by the suites on free
// loopback ports.
//
// The tutorial checker (test/tutorial-configs.e2e-spec.ts) needs the programs that check each kind of
// code block, and an sshd binary: openssh-server is never installed (that would configure and start a
// server); its package is downloaded and unpacked into node_modules/.cache/tutorial-tools, and the
// `sshd` privilege-separation user it needs is created the way the package's postinst would.
const { execFileSync, spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, readdirSync, rmSync } = require('node:fs');
const { join, resolve } = require('node:path');

const PACKAGES = [
  { name: 'redis-server', binary: 'redis-server' },
  { name: 'openssl', binary: 'openssl' },
  { name: 'chromium', binary: 'chromium' },
  { name: 'nginx', binary: 'nginx' },
  // The tutorial checker's tools.
  { name: 'nftables', binary: 'nft' },
  { name: 'shellcheck', binary: 'shellcheck' },
  { name: 'haproxy', binary: 'haproxy' },
  { name: 'ansible-core', binary: 'ansible-playbook' },
  { name: 'cloud-init', binary: 'cloud-init' },
  { name: 'openssh-client', binary: 'ssh' },
  { name: 'systemd', binary: 'systemd-analyze' },
  { name: 'iproute2', binary: 'ip' },
  { name: 'python3', binary: 'python3' },
  // A library the unpacked sshd links against that nothing else here brings in.
  { name: 'libwrap0', file: '/lib/x86_64-linux-gnu/libwrap.so.0' },
];

/** Where the sshd binary is unpacked when /usr/sbin/sshd is absent (test/support/tutorials/tools.ts reads it from here). */
const SSHD_CACHE = resolve(__dirname, '..', 'node_modules', '.cache', 'tutorial-tools', 'openssh-server');

function has(binary) {
  return spawnSync('sh', ['-c', `PATH="$PATH:/usr/sbin:/sbin"; command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

function present(p) {
  if (p.binary) return has(p.binary);
  return existsSync(p.file) || spawnSync('dpkg-query', ['-W', '-f', '${Status}', p.name], { encoding: 'utf8' }).stdout.includes('install ok installed');
}

const isRoot = () => typeof process.getuid !== 'function' || process.getuid() === 0;
/** Root on a machine with apt (Debian, Ubuntu): the only place this setup installs anything. */
const canProvision = () => isRoot() && has('apt-get') && has('dpkg-deb');
const aptEnv = () => ({ ...process.env, DEBIAN_FRONTEND: 'noninteractive' });
let updated = false;
function aptUpdate() {
  if (updated) return;
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env: aptEnv() });
  updated = true;
}

/** An sshd binary without installing openssh-server: /usr/sbin/sshd, $TUTORIAL_SSHD, or the package unpacked into SSHD_CACHE. */
function provisionSshd() {
  if (process.env.TUTORIAL_SSHD && existsSync(process.env.TUTORIAL_SSHD)) return;
  const unpacked = join(SSHD_CACHE, 'usr', 'sbin', 'sshd');
  if (!existsSync('/usr/sbin/sshd') && !existsSync(unpacked)) {
    if (!canProvision()) throw new Error(`The tutorial checker needs an sshd binary: set TUTORIAL_SSHD to one, install openssh-server, or run \`npm run test:system\` once as root on Debian/Ubuntu so ${SSHD_CACHE} is filled.`);
    console.log(`\nUnpacking openssh-server into ${SSHD_CACHE} (sshd -t/-T for the tutorial checker; not installed, no server started)`);
    const download = join(SSHD_CACHE, 'download');
    rmSync(download, { recursive: true, force: true });
    mkdirSync(download, { recursive: true });
    const get = () => spawnSync('apt-get', ['download', '-qq', 'openssh-server'], { cwd: download, stdio: 'inherit', env: aptEnv() }).status === 0;
    if (!get()) {
      aptUpdate();
      if (!get()) throw new Error('apt-get download openssh-server failed');
    }
    const deb = readdirSync(download).find((f) => f.endsWith('.deb'));
    execFileSync('dpkg-deb', ['-x', join(download, deb), SSHD_CACHE], { stdio: 'inherit' });
    rmSync(download, { recursive: true, force: true });
  }
  // sshd -t refuses to run without its privilege-separation user; openssh-server's postinst creates it
  // with exactly this command (a system user, home /run/sshd not created, no login shell).
  if (spawnSync('getent', ['passwd', 'sshd'], { stdio: 'ignore' }).status !== 0) {
    if (!isRoot()) throw new Error('The tutorial checker needs the sshd privilege-separation user: run the tests as root once, or create it (adduser --system --no-create-home --home /run/sshd --shell /usr/sbin/nologin sshd).');
    const adduser = spawnSync('adduser', ['--quiet', '--system', '--no-create-home', '--home', '/run/sshd', '--shell', '/usr/sbin/nologin', 'sshd'], { stdio: 'inherit' });
    if (adduser.status !== 0) execFileSync('useradd', ['--system', '--no-create-home', '--home-dir', '/run/sshd', '--shell', '/usr/sbin/nologin', 'sshd'], { stdio: 'inherit' });
  }
}

/** What a user who cannot let this setup install (no root, no apt) is told. */
function missingMessage(missing) {
  const why = !has('apt-get') ? 'this machine has no apt-get (not Debian/Ubuntu)' : 'it runs as a user other than root';
  return [
    `The system suites (npm run test:system) need programs this machine lacks, and this setup cannot install them: ${why}.`,
    `Missing Debian packages: ${missing.join(' ')}.`,
    `On Debian/Ubuntu: sudo apt-get install --no-install-recommends ${missing.join(' ')}`,
    '  (or run `sudo npm run test:system` once; it installs them and unpacks sshd for the tutorial checker).',
    'Elsewhere: the suites use Linux network namespaces (unshare, nft) and Chromium at /usr/bin/chromium;',
    '  run them in a Debian container (the Dockerfile\'s base image) or leave them to CI. `npm test` needs none of this.',
  ].join('\n');
}

module.exports = async function systemSetup() {
  const missing = PACKAGES.filter((p) => !present(p)).map((p) => p.name);
  if (missing.length > 0) {
    if (!canProvision()) throw new Error(missingMessage(missing));
    console.log(`\nInstalling test dependencies: ${missing.join(' ')}`);
    aptUpdate();
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env: aptEnv() });
    for (const p of PACKAGES) if (!present(p)) throw new Error(`${p.name} did not install`);
  }
  provisionSshd();
};

module.exports.SSHD_CACHE = SSHD_CACHE;
