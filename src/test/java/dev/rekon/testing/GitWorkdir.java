package dev.rekon.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A clone of a repository on a {@link LocalGitServer}, written to with the git command the way a person
 * would: write files, commit, push to a branch, delete a branch. Each instance has its own directory.
 */
public final class GitWorkdir {

    // Hermetic commits: no prompt, no signing, a fixed author, whatever the user's git configuration says.
    private static final Map<String, String> ENV = Map.of("GIT_TERMINAL_PROMPT", "0");
    private static final List<String> CONFIG = List.of("-c", "user.name=Rekon Test", "-c",
            "user.email=test@rekon.dev", "-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main");

    private final Path dir;
    private String branch = "main";

    private GitWorkdir(Path dir) {
        this.dir = dir;
    }

    static GitWorkdir clone(String url, Path parent) {
        try {
            Files.createDirectories(parent);
            Path dir = Files.createTempDirectory(parent, "clone-");
            GitWorkdir work = new GitWorkdir(dir);
            work.git("clone", "--quiet", url, ".");
            // An empty repository's clone has no branch checked out yet; name it, so that commits land on main.
            work.git("checkout", "--quiet", "-B", "main");
            return work;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path dir() {
        return dir;
    }

    /** Writes {@code content} to {@code relativePath}, creating its folders. */
    public GitWorkdir write(String relativePath, String content) {
        return write(relativePath, content.getBytes(StandardCharsets.UTF_8));
    }

    public GitWorkdir write(String relativePath, byte[] content) {
        try {
            Path file = dir.resolve(relativePath);
            Files.createDirectories(file.getParent());
            Files.write(file, content);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public GitWorkdir delete(String relativePath) {
        git("rm", "--quiet", "-r", relativePath);
        return this;
    }

    /** Switches to {@code name}, creating it from the current commit when new; later pushes go there. */
    public GitWorkdir branch(String name) {
        git("checkout", "--quiet", "-B", name);
        branch = name;
        return this;
    }

    /** Commits everything and pushes it to the current branch; returns the new commit's sha. */
    public String commitAndPush(String message) {
        git("add", "-A");
        git("commit", "--quiet", "--allow-empty", "-m", message);
        push(branch);
        return head();
    }

    /** Pushes the current commit to {@code remoteBranch} (created when missing, force-updated otherwise). */
    public void push(String remoteBranch) {
        git("push", "--quiet", "--force", "origin", "HEAD:refs/heads/" + remoteBranch);
    }

    public void deleteBranch(String remoteBranch) {
        git("push", "--quiet", "origin", "--delete", remoteBranch);
    }

    public String head() {
        return git("rev-parse", "HEAD").trim();
    }

    /** Runs git with the hermetic settings in this clone and returns its output. */
    public String git(String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(CONFIG);
        command.addAll(List.of(args));
        try {
            return Commands.run(dir, ENV, command.toArray(String[]::new));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
