import { join } from 'node:path';
import type { StepPlan } from './steps.js';

/*
 * The tutorials the executed runner runs, each with what stands in for the world outside the throwaway
 * root (a local Borg repository for the storage box, no monitoring ping) and the steps a chroot cannot
 * run (those that need a booted systemd). Lines are the guide file's fence lines.
 */

/** The server a backup tutorial starts from: PostgreSQL running with a database, and the directories it backs up. */
const POSTGRES_SERVER = [
  {
    run: 'pg_ctlcluster 17 main start',
    why: 'PostgreSQL as the server runs it: a chroot has no systemd, so the cluster is started directly',
  },
  {
    run: 'runuser -u postgres -- createdb appdb\nrunuser -u postgres -- psql -q -d appdb -c "CREATE TABLE orders (id int, created_at timestamptz DEFAULT now()); INSERT INTO orders (id) VALUES (1);"',
    why: 'a database with a row for the dump hook to read',
  },
  {
    run: 'mkdir -p /home /srv /var/www /var/backups/borg\necho "<h1>web1</h1>" > /var/www/index.html',
    why: 'the directories the configuration saves, as a web server has them, and the parent of the local repository',
  },
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
      { block: 'systemctl enable --now borgmatic.timer', skip: 'needs a booted systemd, which a chroot does not have' },
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
