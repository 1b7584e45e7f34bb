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
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } = require('node:fs');
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
  // What the unpacked borgmatic packages (Debian 12's and 13's) import; Debian 12's Python runs both.
  { name: 'python3-ruamel.yaml', file: '/usr/lib/python3/dist-packages/ruamel/yaml/__init__.py' },
  { name: 'python3-jsonschema', file: '/usr/lib/python3/dist-packages/jsonschema/__init__.py' },
  { name: 'python3-requests', file: '/usr/lib/python3/dist-packages/requests/__init__.py' },
  { name: 'python3-colorama', file: '/usr/lib/python3/dist-packages/colorama/__init__.py' },
  { name: 'python3-packaging', file: '/usr/lib/python3/dist-packages/packaging/__init__.py' },
  { name: 'python3-pkg-resources', file: '/usr/lib/python3/dist-packages/pkg_resources/__init__.py' },
];

/** Where the sshd binary is unpacked when /usr/sbin/sshd is absent (test/support/tutorials/tools.ts reads it from here). */
const SSHD_CACHE = resolve(__dirname, '..', 'node_modules', '.cache', 'tutorial-tools', 'openssh-server');

function has(binary) {
  return (
    spawnSync('sh', ['-c', `PATH="$PATH:/usr/sbin:/sbin"; command -v ${binary}`], { stdio: 'ignore' }).status === 0
  );
}

function present(p) {
  if (p.binary) return has(p.binary);
  return (
    existsSync(p.file) ||
    spawnSync('dpkg-query', ['-W', '-f', '${Status}', p.name], { encoding: 'utf8' }).stdout.includes(
      'install ok installed',
    )
  );
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
    if (!canProvision())
      throw new Error(
        `The tutorial checker needs an sshd binary: set TUTORIAL_SSHD to one, install openssh-server, or run \`npm run test:system\` once as root on Debian/Ubuntu so ${SSHD_CACHE} is filled.`,
      );
    console.log(
      `\nUnpacking openssh-server into ${SSHD_CACHE} (sshd -t/-T for the tutorial checker; not installed, no server started)`,
    );
    const download = join(SSHD_CACHE, 'download');
    rmSync(download, { recursive: true, force: true });
    mkdirSync(download, { recursive: true });
    const get = () =>
      spawnSync('apt-get', ['download', '-qq', 'openssh-server'], { cwd: download, stdio: 'inherit', env: aptEnv() })
        .status === 0;
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
    if (!isRoot())
      throw new Error(
        'The tutorial checker needs the sshd privilege-separation user: run the tests as root once, or create it (adduser --system --no-create-home --home /run/sshd --shell /usr/sbin/nologin sshd).',
      );
    const adduser = spawnSync(
      'adduser',
      ['--quiet', '--system', '--no-create-home', '--home', '/run/sshd', '--shell', '/usr/sbin/nologin', 'sshd'],
      { stdio: 'inherit' },
    );
    if (adduser.status !== 0)
      execFileSync(
        'useradd',
        ['--system', '--no-create-home', '--home-dir', '/run/sshd', '--shell', '/usr/sbin/nologin', 'sshd'],
        { stdio: 'inherit' },
      );
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
    "  run them in a Debian container (the Dockerfile's base image) or leave them to CI. `npm test` needs none of this.",
  ].join('\n');
}

/*
 * The checker's tools as each Debian release the tutorials name ships them (issue #42). Debian 12's are
 * this machine's (installed above), plus its borgmatic, unpacked. Debian 13's are downloaded from
 * Debian 13's archive with a private apt configuration (its own sources.list, lists, cache and status
 * file under TOOLS_CACHE; the machine's apt sources are not touched), unpacked with dpkg-deb -x and
 * never installed: nothing is configured or started. The C programs (nginx, sshd, haproxy) need Debian
 * 13's C library, so they run through Debian 13's own dynamic loader with its libraries (unpacked
 * beside them); the Python ones (ansible-core, cloud-init, borgmatic) run on this machine's Python 3
 * with their own modules first on PYTHONPATH. Each system gets a bin/ of small wrappers with the
 * programs' usual names, which test/support/tutorials/tools.ts puts in front of the machine's.
 */
const TOOLS_CACHE = resolve(__dirname, '..', 'node_modules', '.cache', 'tutorial-tools');
const DEBIAN_13 = {
  suite: 'trixie',
  programs: ['nginx', 'nginx-common', 'openssh-server', 'haproxy', 'borgmatic', 'ansible-core', 'cloud-init'],
  // The shared libraries those C programs load, from the same release (libc6 first: the loader).
  libraries: [
    'libc6',
    'libssl3t64',
    'libcrypt1',
    'libpcre2-8-0',
    'zlib1g',
    'liblua5.4-0',
    'libwtmpdb0',
    'libaudit1',
    'libpam0g',
    'libselinux1',
    'libgssapi-krb5-2',
    'libkrb5-3',
    'libk5crypto3',
    'libkrb5support0',
    'libcom-err2',
    'libkeyutils1',
    'libcap-ng0',
    'libsystemd0',
    'libzstd1',
    'liblzma5',
    'libcap2',
    'libgcrypt20',
    'libgpg-error0',
    'liblz4-1',
    'libsqlite3-0',
    'libjemalloc2',
    'libstdc++6',
    'libgcc-s1',
  ],
};
/** Bump when the set of tools or the wrappers change, so an old cache is rebuilt. */
const TOOLS_LAYOUT = 2;

function sh(file, text) {
  writeFileSync(file, text, { mode: 0o755 });
}

/** The Debian mirror this machine's apt uses (the first URIs/deb line), so the downloads come from the same place. */
function debianMirror() {
  const files = [
    '/etc/apt/sources.list',
    ...(existsSync('/etc/apt/sources.list.d')
      ? readdirSync('/etc/apt/sources.list.d').map((f) => join('/etc/apt/sources.list.d', f))
      : []),
  ];
  for (const f of files.filter((x) => /\.(list|sources)$/.test(x) && existsSync(x))) {
    const text = readFileSync(f, 'utf8');
    const m = /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text) ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text);
    if (m) return m[1];
  }
  return 'http://deb.debian.org/debian';
}

/** apt-get/apt-cache options that confine apt to a directory of its own (sources, lists, cache, status). */
function privateApt(dir, suite) {
  for (const d of ['lists/partial', 'cache/archives/partial', 'etc/sources.list.d', 'etc/preferences.d'])
    mkdirSync(join(dir, d), { recursive: true });
  writeFileSync(
    join(dir, 'etc', 'sources.list'),
    `deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${debianMirror()} ${suite} main\n`,
  );
  if (!existsSync(join(dir, 'status'))) writeFileSync(join(dir, 'status'), '');
  return [
    '-o',
    `Dir::Etc::SourceList=${join(dir, 'etc', 'sources.list')}`,
    '-o',
    `Dir::Etc::SourceParts=${join(dir, 'etc', 'sources.list.d')}`,
    '-o',
    `Dir::State::Lists=${join(dir, 'lists')}`,
    '-o',
    `Dir::State::Status=${join(dir, 'status')}`,
    '-o',
    `Dir::Cache=${join(dir, 'cache')}`,
    '-o',
    'Dir::Etc::Preferences=/dev/null',
    '-o',
    `Dir::Etc::PreferencesParts=${join(dir, 'etc', 'preferences.d')}`,
    '-o',
    'APT::Sandbox::User=root',
  ];
}

/** Downloads packages (with apt `options`, or the machine's apt) into `dir`/debs and unpacks them into `dir`/root; returns name -> version. */
function unpack(dir, names, options = []) {
  const debs = join(dir, 'debs');
  rmSync(debs, { recursive: true, force: true });
  mkdirSync(debs, { recursive: true });
  execFileSync('apt-get', [...options, 'download', '-qq', ...names], {
    cwd: debs,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: aptEnv(),
  });
  const versions = {};
  for (const deb of readdirSync(debs).filter((f) => f.endsWith('.deb'))) {
    execFileSync('dpkg-deb', ['-x', join(debs, deb), join(dir, 'root')]);
    const [name, version] = execFileSync('dpkg-deb', ['-f', join(debs, deb), 'Package', 'Version'], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n')
      .map((l) => l.replace(/^\w+:\s*/, ''));
    versions[name] = version;
  }
  rmSync(debs, { recursive: true, force: true });
  return versions;
}

/** A wrapper that runs a Python program of an unpacked root on this machine's Python, its modules first. */
function pythonWrapper(root, script) {
  return `#!/bin/sh\nexport PYTHONPATH="${root}/usr/lib/python3/dist-packages\${PYTHONPATH:+:$PYTHONPATH}"\nexec /usr/bin/python3 "${root}${script}" "$@"\n`;
}

function provisionSystemTools() {
  const d12 = join(TOOLS_CACHE, 'debian-12');
  const d13 = join(TOOLS_CACHE, 'debian-13');
  const ready = (d) =>
    existsSync(join(d, 'tools.json')) &&
    JSON.parse(readFileSync(join(d, 'tools.json'), 'utf8')).layout === TOOLS_LAYOUT;
  if (ready(d12) && ready(d13)) return;
  if (!isRoot())
    throw new Error(
      `The tutorial checker needs Debian 12's and 13's tools in ${TOOLS_CACHE}: run the tests as root once.`,
    );
  const started = Date.now();
  console.log(`\nUnpacking Debian 12's borgmatic and Debian 13's checker tools into ${TOOLS_CACHE} (not installed)`);
  for (const d of [d12, d13]) rmSync(d, { recursive: true, force: true });

  let v12;
  try {
    v12 = unpack(d12, ['borgmatic'], ['-o', 'APT::Sandbox::User=root']);
  } catch {
    aptUpdate();
    v12 = unpack(d12, ['borgmatic'], ['-o', 'APT::Sandbox::User=root']);
  }
  mkdirSync(join(d12, 'bin'), { recursive: true });
  // borgmatic 1.7 validates with a program of its own; 1.8 and later with `borgmatic config validate`.
  for (const name of ['borgmatic', 'validate-borgmatic-config'])
    sh(join(d12, 'bin', name), pythonWrapper(join(d12, 'root'), `/usr/bin/${name}`));
  writeFileSync(join(d12, 'tools.json'), JSON.stringify({ layout: TOOLS_LAYOUT, packages: v12 }, null, 2));

  const apt = privateApt(join(d13, 'apt'), DEBIAN_13.suite);
  execFileSync('apt-get', [...apt, 'update', '-qq'], { stdio: 'inherit', env: aptEnv() });
  const v13 = unpack(d13, [...DEBIAN_13.programs, ...DEBIAN_13.libraries], apt);
  const root = join(d13, 'root');
  const libs = [join(root, 'usr', 'lib', 'x86_64-linux-gnu'), join(root, 'lib', 'x86_64-linux-gnu')]
    .filter(existsSync)
    .join(':');
  const loader = join(root, 'usr', 'lib', 'x86_64-linux-gnu', 'ld-linux-x86-64.so.2');
  mkdirSync(join(d13, 'bin'), { recursive: true });
  for (const [name, path] of [
    ['nginx', '/usr/sbin/nginx'],
    ['sshd', '/usr/sbin/sshd'],
    ['haproxy', '/usr/sbin/haproxy'],
  ]) {
    sh(join(d13, 'bin', name), `#!/bin/sh\nexec "${loader}" --library-path "${libs}" "${root}${path}" "$@"\n`);
  }
  for (const name of ['ansible-playbook', 'ansible-inventory', 'ansible', 'cloud-init', 'borgmatic'])
    sh(join(d13, 'bin', name), pythonWrapper(root, `/usr/bin/${name}`));
  writeFileSync(join(d13, 'tools.json'), JSON.stringify({ layout: TOOLS_LAYOUT, packages: v13 }, null, 2));
  console.log(`Debian 12/13 checker tools ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

module.exports = async function systemSetup() {
  const missing = PACKAGES.filter((p) => !present(p)).map((p) => p.name);
  if (missing.length > 0) {
    if (!canProvision()) throw new Error(missingMessage(missing));
    console.log(`\nInstalling test dependencies: ${missing.join(' ')}`);
    aptUpdate();
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env: aptEnv(),
    });
    for (const p of PACKAGES) if (!present(p)) throw new Error(`${p.name} did not install`);
  }
  provisionSshd();
  provisionSystemTools();
};

module.exports.SSHD_CACHE = SSHD_CACHE;
module.exports.TOOLS_CACHE = TOOLS_CACHE;
