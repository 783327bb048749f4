package activity

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/capacitor-hud/hud/hud/safegit"
)

// GitFacts is the checkpoint's view of a repository, its "git" object.
type GitFacts struct {
	Branch                string `json:"branch"`
	HasUncommittedChanges bool   `json:"has_uncommitted_changes"`
	StagedFiles           int    `json:"staged_files"`
	UnstagedFiles         int    `json:"unstaged_files"`
	UntrackedFiles        int    `json:"untracked_files"`
	// LastCommit is "<short hash> <subject>".
	LastCommit string `json:"last_commit,omitempty"`
	// Head is the full hash of HEAD; not part of the checkpoint.
	Head string `json:"-"`
}

// gitTimeout bounds every git call of the worker: a huge repository or a
// stuck credential helper must not keep it alive forever.
const gitTimeout = 10 * time.Second

// ErrNotRepo is returned for a directory outside any git work tree.
var ErrNotRepo = safegit.ErrNotRepo

// git runs git in dir through safegit, the one way hud runs git: the
// project's own configuration never runs a command.
func git(dir string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	return safegit.Run(ctx, dir, args...)
}

// ReadGitFacts reads branch, status counts and the last commit of the
// repository holding dir.
func ReadGitFacts(dir string) (GitFacts, error) {
	// --porcelain=v2 --branch gives the branch, head and every entry's
	// staged/unstaged state in one call. Submodules are not looked into:
	// each is a repository of its own, with a config of its own.
	// Untracked files are listed one by one (not collapsed into their
	// directory) so the HUD's own checkpoint can be told apart.
	out, err := git(dir, "status", "--porcelain=v2", "--branch", "--untracked-files=all", "--ignore-submodules=all")
	if err != nil {
		return GitFacts{}, err
	}
	f := parseStatus(out)
	if f.Head != "" {
		if subj, err := git(dir, "log", "-1", "--no-show-signature", "--format=%h %s"); err == nil {
			f.LastCommit = strings.TrimSpace(string(subj))
		}
	}
	return f, nil
}

// ownFiles are the files the HUD itself writes into a project; they must
// not make the repository look dirty (the checkpoint would otherwise always
// report its own existence as an uncommitted change).
var ownFiles = map[string]bool{
	".claude/.project-state.json":     true,
	".claude/.project-state.json.bak": true,
	".claude/session-state.json":      true,
}

// parseStatus reads `git status --porcelain=v2 --branch`.
func parseStatus(out []byte) GitFacts {
	var f GitFacts
	for line := range strings.SplitSeq(string(out), "\n") {
		if fields := strings.Fields(line); len(fields) > 0 && ownFiles[fields[len(fields)-1]] {
			continue
		}
		switch {
		case strings.HasPrefix(line, "# branch.head "):
			f.Branch = strings.TrimPrefix(line, "# branch.head ")
			if f.Branch == "(detached)" {
				f.Branch = "HEAD"
			}
		case strings.HasPrefix(line, "# branch.oid "):
			if oid := strings.TrimPrefix(line, "# branch.oid "); oid != "(initial)" {
				f.Head = oid
			}
		case strings.HasPrefix(line, "1 "), strings.HasPrefix(line, "2 "), strings.HasPrefix(line, "u "):
			// "<kind> XY ...": X is the index, Y the work tree; '.' = unchanged.
			if len(line) >= 4 {
				if line[2] != '.' {
					f.StagedFiles++
				}
				if line[3] != '.' {
					f.UnstagedFiles++
				}
			}
		case strings.HasPrefix(line, "? "):
			f.UntrackedFiles++
		}
	}
	f.HasUncommittedChanges = f.StagedFiles+f.UnstagedFiles+f.UntrackedFiles > 0
	return f
}

// Commit is a line of commit-log.jsonl.
type Commit struct {
	Timestamp    string   `json:"timestamp"`
	Hash         string   `json:"hash"`
	ShortHash    string   `json:"shortHash"`
	Message      string   `json:"message"`
	Author       string   `json:"author"`
	AuthorDate   string   `json:"authorDate"`
	Branch       string   `json:"branch"`
	FilesChanged int      `json:"filesChanged"`
	FilesList    []string `json:"filesList"`
	Session      string   `json:"session"`
}

// maxNewCommits bounds one scan, so a first look at a busy repository (or
// a rebase that rewrote history) does not flood the log.
const maxNewCommits = 20

// commitSep separates records in the log output; it cannot appear in a
// commit subject.
const commitSep = "\x1e"

// NewCommits lists the commits reachable from HEAD but not from since,
// oldest first, at most maxNewCommits. An empty since means the repository
// had no commit yet, so every commit is new. A since git no longer knows (a
// rewritten history) yields nothing rather than a flood.
func NewCommits(dir, since string, now time.Time) ([]Commit, error) {
	rangeArg := "HEAD"
	if since != "" {
		if _, err := git(dir, "cat-file", "-e", since+"^{commit}"); err != nil {
			return nil, nil
		}
		rangeArg = since + "..HEAD"
	}
	// -n limits before --reverse reorders: the newest commits, oldest first.
	out, err := git(dir, "log", "--no-show-signature", "--no-ext-diff", "--no-textconv", "--reverse", "-n", strconv.Itoa(maxNewCommits), "--name-only",
		"--format="+commitSep+"%H%x00%h%x00%s%x00%an%x00%aI", rangeArg)
	if err != nil {
		return nil, err
	}
	return parseLog(string(out), now), nil
}

func parseLog(out string, now time.Time) []Commit {
	var commits []Commit
	for rec := range strings.SplitSeq(out, commitSep) {
		header, files, _ := strings.Cut(rec, "\n")
		parts := strings.Split(header, "\x00")
		if len(parts) != 5 {
			continue
		}
		c := Commit{
			Timestamp:  now.UTC().Format(time.RFC3339Nano),
			Hash:       parts[0],
			ShortHash:  parts[1],
			Message:    parts[2],
			Author:     parts[3],
			AuthorDate: parts[4],
			FilesList:  []string{},
		}
		for f := range strings.SplitSeq(files, "\n") {
			if f = strings.TrimSpace(f); f != "" {
				c.FilesList = append(c.FilesList, f)
			}
		}
		c.FilesChanged = len(c.FilesList)
		commits = append(commits, c)
	}
	return commits
}
