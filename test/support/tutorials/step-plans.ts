import { join } from 'node:path';
import type { StepPlan } from './steps.js';

/*
 * The tutorials the executed runner runs, each with what stands in for the world outside the throwaway
 * root (a local repository for the storage box or bucket, a git daemon on loopback for the team's git
 * server, Debian's own Python packages as wheels for PyPI), the server state a booted system would have
 * (services apt starts), and the steps the run cannot take, each with why. Lines are the guide file's
 * fence lines.
 */

/** Debian 13 packages PostgreSQL 17; the guides name Ubuntu 24.04's 16 in their paths and tell a Debian 13 reader to use 17. */
const POSTGRES_17 = {
  from: '/16/main',
  to: '/17/main',
  why: 'the guide writes Ubuntu 24.04\'s version in its paths and says "on Debian 13 substitute 17 in every path"',
};

/** What a booted server has and a chroot has not: the cluster apt installed, started by systemd's postgresql generator. */
const CLUSTER_RUNNING = {
  run: 'systemctl start postgresql@17-main',
  why: "a booted Debian 13 starts the cluster apt created (systemd's postgresql generator wants postgresql@17-main); the chroot boots nothing, so its unit is started",
};

/** The app's database and a row, in the PostgreSQL the backup guides start from. */
const APP_DATABASE = {
  run: 'runuser -u postgres -- createdb appdb\nrunuser -u postgres -- psql -q -d appdb -c "CREATE TABLE orders (id int, created_at timestamptz DEFAULT now()); INSERT INTO orders (id) VALUES (1);"',
  why: 'a database with a row for the dump to read',
};

/** The server a backup tutorial starts from: PostgreSQL running with a database, and the directories it backs up. */
const POSTGRES_SERVER = [
  CLUSTER_RUNNING,
  APP_DATABASE,
  {
    run: 'mkdir -p /home /srv /var/www /var/backups/borg\necho "<h1>web1</h1>" > /var/www/index.html',
    why: 'the directories the configuration saves, as a web server has them, and the parent of the local repository',
  },
];

/** A git server on loopback for the guides that clone the team's repository: `git daemon` serving a fixture app. */
const gitServer = (name: string) => ({
  run: `cd /var/fixtures/${name}-src && git init -q -b main && git add -A && git -c user.name=team -c user.email=team@localhost commit -qm 'the app'\ngit clone -q --bare /var/fixtures/${name}-src /var/fixtures/${name}.git\ngit daemon --detach --reuseaddr --listen=127.0.0.1 --base-path=/var/fixtures --export-all`,
  why: `git.example.com is outside the run: git daemon on loopback serves the fixture app as ${name}.git`,
});

/** nginx as a booted server runs it after `apt install nginx`. */
const NGINX_RUNNING = {
  run: 'systemctl start nginx',
  why: 'apt starts nginx when it installs it on a booted server; the root was built with starts refused',
};

/** Debian 13's Flask and gunicorn with what they need, packed as wheels (test/fixtures/tutorial-steps/debian-wheels.py). */
const DEBIAN_WHEELS = [
  'python3-flask',
  'python3-werkzeug',
  'python3-jinja2',
  'python3-markupsafe',
  'python3-itsdangerous',
  'python3-click',
  'python3-blinker',
  'python3-gunicorn',
  'python3-packaging',
];

export const STEP_PLANS: StepPlan[] = [
  {
    slug: 'borgmatic-backups',
    before: POSTGRES_SERVER,
    replace: [
      {
        from: 'ssh://u123456@u123456.your-storagebox.de:23/./borg/web1',
        to: '/var/backups/borg/web1',
        why: 'a local repository in place of the storage box: the steps reach no network',
      },
      { from: 'ssh_command: ssh -i /root/.ssh/borg_ed25519\n', to: '', why: 'no SSH to a local repository' },
      {
        from: 'healthchecks:\n  ping_url: https://hc-ping.com/your-check-uuid\n',
        to: '',
        why: 'no network: the monitoring ping is left out',
      },
    ],
    // The passphrase file, which the guide creates in a sentence after the configuration.
    prose: [
      {
        after: 'encryption_passcommand:',
        run: 'openssl rand -base64 36 | sudo tee /etc/borgmatic/passphrase\nsudo chmod 600 /etc/borgmatic/passphrase',
      },
    ],
    steps: [
      {
        block: 'systemctl enable --now borgmatic.timer',
        skip: "a timer needs systemd's timer manager: the runner's systemctl stand-in has none",
      },
      { block: 'borgmatic create --verbosity 1', output: /Dumping PostgreSQL databases/ },
      { block: 'sudo borgmatic --verbosity 1\n', output: /Dumping PostgreSQL databases/ },
      { block: 'files match', output: /files match/ },
    ],
    verify: [
      {
        run: 'mkdir -p /tmp/dump && borgmatic extract --archive latest --path borgmatic/postgresql_databases/localhost/appdb --destination /tmp/dump\npg_restore --list /tmp/dump/borgmatic/postgresql_databases/localhost/appdb | grep -E "TABLE public orders"',
        why: 'the newest archive holds a dump of appdb that pg_restore reads, with the table the server has',
      },
      { run: 'borgmatic list | grep -c . | grep -qE "^[2-9]"', why: 'two archives: the first create and the full run' },
    ],
  },
  {
    slug: 'postgresql-on-a-vps',
    before: [
      CLUSTER_RUNNING,
      {
        run: 'ip addr add 10.0.0.5/32 dev lo',
        why: "the server's private-network address, which the guide's listen_addresses example names",
      },
    ],
    append: ["listen_addresses = 'localhost,10.0.0.5'", 'host    appdb     appuser  10.0.0.6/32'],
    replace: [
      POSTGRES_17,
      {
        from: 'sudo apt update\n',
        to: '',
        why: "the run reaches no mirror: the root's package lists are those of provisioning, when PostgreSQL was installed",
      },
      {
        from: 'your_main_table',
        to: 'orders',
        why: "the guide's placeholder for the reader's own table: the run's app table (created after createdb)",
      },
    ],
    steps: [
      { block: 'createuser --pwprompt appuser', input: 'app-secret\napp-secret\n' },
      { block: 'pg_lsclusters', output: /^17\s+main\s+5432\s+online\s/m },
      { block: 'SELECT type, database, user_name', output: /\{appdb\}\s*\|\s*\{appuser\}\s*\|\s*10\.0\.0\.6/ },
      { block: 'SHOW shared_buffers', output: /^\s*1GB$/m },
      { block: 'createdb restore_test', output: /^\s*1$/m },
    ],
    prose: [
      {
        after: 'createuser --pwprompt appuser',
        run: `PGPASSWORD=app-secret psql -h 127.0.0.1 -U appuser -d appdb -q -c "CREATE TABLE orders (id int, created_at timestamptz DEFAULT now()); INSERT INTO orders (id) VALUES (1);"`,
        why: "the app's part: it connects as appuser over TCP with the password given at the prompt (the scram-sha-256 rule) and creates its table",
      },
    ],
    verify: [
      {
        run: `grep -v '^#' /etc/cron.d/pg-backup | while read -r m h dom mon dow user cmd; do cd "$(getent passwd "$user" | cut -d: -f6)" && runuser -u "$user" -- sh -c "$(printf '%s' "$cmd" | sed 's/\\\\%/%/g')"; done\nls /var/backups/postgres/appdb-$(date +%F).dump /var/backups/postgres/globals.sql`,
        why: "each line of the cron table runs as its user the way cron would (\\% becomes %), and writes the day's dump and the globals",
      },
      {
        run: `runuser -u postgres -- psql -tA -c "SHOW listen_addresses" | grep -qx 'localhost,10.0.0.5'\nss -ltn | grep -q '10.0.0.5:5432'`,
        why: 'the restart after the change made PostgreSQL listen on the private address too (a reload would not)',
      },
    ],
  },
  {
    slug: 'zero-downtime-deploys',
    copy: [
      {
        from: 'test/fixtures/tutorial-steps/api-src',
        to: '/var/fixtures/api-src',
        why: "the team's app the guide clones: no dependencies, so npm ci needs no registry; a build step, /healthz, SIGTERM",
      },
    ],
    before: [
      {
        run: 'useradd --create-home --shell /bin/bash --groups sudo deploy',
        why: 'the login user the guide deploys as, made as in create-sudo-user (its Prerequisites)',
      },
      NGINX_RUNNING,
      gitServer('api'),
    ],
    replace: [
      {
        from: 'https://git.example.com/team/api.git',
        to: 'git://127.0.0.1/api.git',
        why: 'the git server on loopback',
      },
      {
        from: /^\/srv\/api\/deploy\.sh/gm,
        to: 'sudo -u deploy /srv/api/deploy.sh',
        why: 'steps run as root; the guide runs the script as the deploy user it logs in as, so its sudo rule is what lets it work',
      },
      {
        from: 'sleep 30\n',
        to: 'sleep 2\n',
        why: "the old slot's grace period, shortened to keep the suite in CI's time",
      },
      {
        from: "while true; do curl -s -o /dev/null -w '%{http_code}\\n' https://api.example.com/healthz; sleep 0.2; done",
        to: "curl -fsS -H 'Host: api.example.com' http://127.0.0.1/healthz",
        why: 'the public name and its certificate are outside the run, and the loop runs until stopped: one request through nginx instead',
      },
    ],
    steps: [
      { block: 'sudo visudo -c', output: /\/etc\/sudoers\.d\/api-deploy: parsed OK/ },
      {
        block: 'readlink /srv/api/current',
        output:
          /server 127\.0\.0\.1:8001;[\s\S]*api@blue\.service loaded active running[\s\S]*enabled\n[\s\S]*ok production/,
      },
    ],
    verify: [
      {
        run: 'systemctl is-active api@blue && ! systemctl is-active api@green && systemctl is-enabled api@blue && test "$(systemctl is-enabled api@green)" = disabled',
        why: 'after the rollback, exactly the slot nginx names runs and starts at boot',
      },
      {
        run: 'ls /srv/api/releases | grep -c . | grep -qx 1 && test -f /srv/api/current/dist/version.json && test ! -e /srv/api/current/node_modules/.package-lock.json -o -s /srv/api/current/node_modules/.package-lock.json',
        why: 'one release, built (dist/ from npm run build), in place',
      },
    ],
  },
  {
    slug: 'restore-drills',
    before: [
      CLUSTER_RUNNING,
      APP_DATABASE,
      {
        run: "install -d -m 700 /etc/restic\nprintf 'RESTIC_REPOSITORY=/var/backups/restic\\nRESTIC_PASSWORD_FILE=/etc/restic/password\\n' > /etc/restic/env\nopenssl rand -base64 48 > /etc/restic/password\nchmod 600 /etc/restic/env /etc/restic/password\nset -a; . /etc/restic/env; set +a\nrestic init -q\nmkdir -p /srv/app && echo release-1 > /srv/app/VERSION\nrestic backup -q --tag files --one-file-system /etc /home /srv /root\nsudo -u postgres pg_dumpall | restic backup -q --stdin --stdin-filename postgres-all.sql --tag db",
        why: "the repository the restic guide's nightly job writes (a local one in place of the S3 bucket, which the run cannot reach): a files snapshot and a pg_dumpall streamed in as /postgres-all.sql tagged db",
      },
      {
        run: 'runuser -u postgres -- dropdb appdb',
        why: 'the drill restores onto a scratch server, whose fresh PostgreSQL has no appdb',
      },
    ],
    replace: [],
    steps: [
      {
        block: 'script -T /root/drill-timing.log',
        skip: 'starts an interactive shell that records the session; the run has no terminal and types nothing into it',
      },
      { block: 'SELECT max(created_at) FROM orders', output: /\(1 row\)/ },
    ],
    verify: [
      {
        run: 'chmod 755 /usr/local/sbin/backup-canary && /usr/local/sbin/backup-canary',
        why: 'the canary passes against the fresh repository',
      },
      { run: 'test "$(cat /restore/srv/app/VERSION)" = release-1', why: 'the drill restored /srv' },
    ],
  },
  {
    slug: 'python-app-gunicorn-nginx',
    copy: [
      {
        from: 'test/fixtures/tutorial-steps/myapp-src',
        to: '/var/fixtures/myapp-src',
        why: "the team's Flask app the guide clones: myapp/wsgi.py with /healthz, a static file, requirements.txt",
      },
      {
        from: 'test/fixtures/tutorial-steps/debian-wheels.py',
        to: '/var/fixtures/debian-wheels.py',
        why: 'packs Debian packages into wheels for pip',
      },
    ],
    before: [
      NGINX_RUNNING,
      gitServer('myapp'),
      {
        run: `python3 /var/fixtures/debian-wheels.py /var/cache/wheelhouse ${DEBIAN_WHEELS.join(' ')}`,
        why: "PyPI is outside the run: pip installs from wheels packed from Debian 13's own python3-flask, python3-gunicorn and what they need",
      },
    ],
    replace: [
      {
        from: 'https://git.example.com/team/myapp.git',
        to: 'git://127.0.0.1/myapp.git',
        why: 'the git server on loopback',
      },
      {
        from: '/venv/bin/pip install ',
        to: '/venv/bin/pip install --no-index --find-links /var/cache/wheelhouse ',
        why: 'the wheels in place of PyPI',
      },
      {
        from: 'sudoedit /etc/myapp.env     # DATABASE_URL=..., SECRET_KEY=...',
        to: 'printf "SECRET_KEY=%s\\n" "$(openssl rand -hex 32)" | sudo tee /etc/myapp.env >/dev/null',
        why: 'sudoedit opens an editor: the run writes what the reader types there, a secret key',
      },
    ],
    steps: [
      { block: 'sudo systemctl enable --now myapp', output: /Active: active \(running\)[\s\S]*^ok$/m },
      { block: 'sudo -u myapp git -C /srv/myapp/src pull', output: /Already up to date/ },
    ],
    verify: [
      {
        run: "curl -fsS -H 'Host: app.example.com' http://127.0.0.1/healthz | grep -qx ok",
        why: 'nginx reaches gunicorn on its socket, and the app read its environment file',
      },
      {
        run: "curl -fsS -H 'Host: app.example.com' http://127.0.0.1/static/app.css | grep -q font-family",
        why: 'nginx serves the static files itself',
      },
      {
        run: 'test "$(grep -c . /run/systemctl-shim/myapp.service.log | head -1)" -gt 0 && grep -q "Handling signal: hup" /run/systemctl-shim/myapp.service.log',
        why: 'the reload after the deploy reached gunicorn as a HUP',
      },
    ],
  },
  {
    slug: 'server-hardening-checklist',
    before: [
      {
        run: 'useradd --create-home --shell /bin/bash --groups sudo deploy',
        why: 'the sudo user the guide has the reader create first (create-sudo-user)',
      },
      { run: 'systemctl start ssh', why: 'sshd runs on every VPS the reader logs in to' },
    ],
    replace: [
      {
        from: 'sudo apt update && sudo apt full-upgrade\n',
        to: '',
        why: 'the run reaches no mirror; the root was installed from Debian 13 the day it was provisioned',
      },
      {
        from: 'sudo apt purge package-name        # each package you cannot justify\n',
        to: '',
        why: "a placeholder for the reader's own choice",
      },
    ],
    steps: [
      { block: 'sudo ufw enable', input: 'y\n', output: /Firewall is active and enabled on system startup/ },
      { block: 'sudo fail2ban-client status sshd', output: /Status for the jail: sshd/ },
      { block: 'sudo ss -tulpn', output: /:22\b/ },
      {
        block: 'systemd-analyze security myapp.service',
        skip: "asks a running systemd about the reader's own unit; the chroot has neither",
      },
      {
        block: 'sudo aideinit',
        skip: "aideinit hashes every file on the disk (minutes of the suite's time); AIDE's rules are read by the aide-rule-on-symlink check",
      },
    ],
    verify: [
      {
        run: 'grep -q \'^APT::Periodic::Unattended-Upgrade "1";\' /etc/apt/apt.conf.d/20auto-upgrades',
        why: "unattended upgrades are on (without a terminal, dpkg-reconfigure falls back to debconf's noninteractive frontend, which keeps the answer: yes)",
      },
      {
        run: "sshd -T | grep -E '^(passwordauthentication|permitrootlogin) no$' | grep -c . | grep -qx 2",
        why: "the guide's own check: both settings are no",
      },
      {
        run: 'systemctl is-active ssh && ufw status | grep -q "Status: active" && ufw status | grep -qE "^80,443/tcp +ALLOW"',
        why: 'sshd restarted with the drop-in, and the firewall is on with the web ports open',
      },
    ],
  },
  {
    slug: 'self-host-nextcloud',
    before: [],
    replace: [
      {
        from: 'sudo docker compose up -d\nsudo docker compose logs -f app\n',
        to: 'sudo docker compose config --quiet\n',
        why: 'no Docker daemon can run here (no cgroups for containers in the runner): Compose reads, interpolates and validates the project as `up` would, then stops',
      },
    ],
    steps: [
      {
        block: 'sudo mkfs.ext4 -L ncdata /dev/sdb',
        skip: "formats and mounts the provider's block volume, which the run has not got",
      },
      { block: 'occ status', skip: 'runs commands in the containers, which do not run here' },
      { block: 'occ maintenance:mode --on', skip: 'runs commands in the containers, which do not run here' },
    ],
    prose: [
      {
        after: 'sudo apt install -y caddy',
        run: 'systemctl start caddy',
        why: 'apt starts caddy when it installs it on a booted server; the root was built with starts refused',
      },
      { after: 'reverse_proxy 127.0.0.1:8080', run: 'sudo systemctl reload caddy' },
    ],
    verify: [
      {
        run: 'mode=$(stat -c %a:%U /opt/nextcloud/.env); echo "$mode"; test "$mode" = 600:root',
        why: 'the .env holds the database passwords: mode 600, owned by root, as the guide says',
      },
      { run: 'caddy validate --config /etc/caddy/Caddyfile --adapter caddyfile', why: 'Caddy accepts the Caddyfile' },
      {
        run: 'cd /opt/nextcloud && test "$(sudo docker compose config --services | sort | tr "\\n" " ")" = "app cron db redis "',
        why: 'Compose read the project the guide wrote: its four services',
      },
    ],
  },
];

/** The fixture with the borgmatic and set -e mistakes: the runner must report both. */
export const BROKEN_PLAN: StepPlan = {
  slug: 'broken-backup',
  file: join(__dirname, '..', '..', 'fixtures', 'tutorial-steps', 'broken-backup.md'),
  before: POSTGRES_SERVER,
  replace: [],
  // The switch must stop when nginx -t fails, and leave the old slot live.
  steps: [{ block: 'sudo /usr/local/bin/switch-slot', exit: 'fail', absent: ['/srv/live-slot'] }],
};
