// session.create --worktree against the real OpenCode (issue 10,
// docs/spec/control-service.md §5.1 step 7): OpenCode makes the git worktree
// (POST /experimental/worktree, branch opencode/<name>, under its data dir) and reports its
// bootstrap on /global/event; the service creates the session there and the prompt runs there. A
// refused selection creates no worktree; options OpenCode cannot honour are refused (exit 2) rather
// than silently ignored.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { check } from '../lib/harness.mjs';
import { json } from './cli.mjs';

const factor = Number(process.env.PEERS_TEST_TIMEOUT_FACTOR || 1);

function git(cwd, ...args) {
  return execFileSync('git', args, {
    cwd, encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid', GIT_CONFIG_NOSYSTEM: '1' },
  });
}

// The worktrees git knows for repo: [{ path, branch }].
function worktrees(repo) {
  return git(repo, 'worktree', 'list', '--porcelain').trim().split('\n\n').map((block) => ({
    path: realpathSync(block.match(/^worktree (.*)$/m)[1]),
    branch: block.match(/^branch refs\/heads\/(.*)$/m)?.[1],
  }));
}

export async function runWorktreeCases({ ocUrl, base, run }) {
  const repo = path.join(base, 'gitrepo');
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(repo, 'README.md'), 'a repository for worktrees\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-qm', 'first');
  const repoDir = realpathSync(repo);
  const sessionsIn = async (directory) =>
    (await (await fetch(`${ocUrl}/session?directory=${encodeURIComponent(directory)}`)).json()).length;

  // Refused before any side effect: an unknown agent, and what OpenCode's API cannot do.
  for (const [flags, text] of [
    [['--worktree', 'refused', '--prompt', 'PEERS refused', '--agent', 'no-such-agent'], "Unknown agent 'no-such-agent'"],
    [['--worktree', 'refused', '--branch', 'mine'], 'branch is not supported'],
    [['--worktree', 'refused', '--start-ref', 'main'], 'startRef is not supported'],
    [['--worktree', 'refused', '--upstream'], 'setUpstream is not supported'],
  ]) {
    const r = await run('session', 'create', '--dir', repoDir, ...flags);
    check(r.code === 2 && r.err.includes(text), `${flags.join(' ')} → exit 2 with "${text}" (got ${r.code}: ${r.err})`);
  }
  check(worktrees(repoDir).length === 1, `no worktree was made by the refused creates: ${JSON.stringify(worktrees(repoDir))}`);
  check(await sessionsIn(repoDir) === 0, 'no session was made by the refused creates');

  // A session in a new worktree, with a prompt, waiting for the reply.
  const t0 = Date.now();
  const r = await run('session', 'create', '--dir', repoDir, '--worktree', 'feat-wt', '--title', 'In a worktree',
    '--prompt', 'PEERS in a worktree', '--model', 'mock/mock-model', '--wait', '--timeout', String(Math.round(120 * factor)),
    '--last-assistant', '--json');
  const ms = Date.now() - t0;
  const created = json(r, 'session create --worktree');
  check(r.code === 0, `create --worktree succeeded: ${r.out}${r.err}`);
  const wt = created.worktree ?? {};
  check(wt.name === 'feat-wt' && wt.branch === 'opencode/feat-wt' && typeof wt.path === 'string',
    `the result names the worktree: ${JSON.stringify(created)}`);
  check(created.directory === wt.path, `the session's directory is the worktree: ${created.directory} vs ${wt.path}`);
  check(existsSync(path.join(wt.path, 'README.md')), `the worktree is checked out on disk at ${wt.path}`);
  const listed = worktrees(repoDir).find((w) => w.path === realpathSync(wt.path));
  check(listed?.branch === 'opencode/feat-wt', `git lists the worktree on its branch: ${JSON.stringify(worktrees(repoDir))}`);
  check(git(wt.path, 'rev-parse', '--abbrev-ref', 'HEAD').trim() === 'opencode/feat-wt', 'the worktree is on opencode/feat-wt');
  check(created.promptDispatched === true && created.lastAssistantMessage?.text === 'Reply to PEERS in a worktree',
    `the prompt ran in the worktree's session: ${JSON.stringify(created.lastAssistantMessage)}`);
  check(await sessionsIn(wt.path) === 1 && await sessionsIn(repoDir) === 0,
    'OpenCode holds the session in the worktree, none in the base repository');
  console.log(`figure: session create --worktree --wait took ${ms} ms (CLI process included)`);
}
