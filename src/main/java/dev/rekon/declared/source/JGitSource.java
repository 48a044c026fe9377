package dev.rekon.declared.source;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.PathFilter;

import dev.rekon.core.RefusedException;
import dev.rekon.core.TransientFailureException;

/**
 * {@link GitSource} over JGit: the branch's tip listed and, for a commit not seen yet, fetched shallow on the same
 * connection into a cached bare repository ({@link TipFetch}); the commit's files read straight from the object
 * database (no checkout), each file's size checked before it is loaded.
 */
@ApplicationScoped
public class JGitSource implements GitSource {

    private final GitCache cache;
    private final SourceLimits limits;
    /** As {@code rekon.declared.held-bytes} defaults. */
    static final long DEFAULT_HELD_BYTES = 8L << 20;

    private final int timeoutSeconds;
    private final long heldBytes;
    private final AtomicLong fetches = new AtomicLong();
    private final AtomicLong listings = new AtomicLong();

    @Inject
    public JGitSource(DeclaredSourceConfig config) {
        this(Path.of(config.cacheDir()), config.cacheMaxBytes(), config.timeout(), config.limits(), config.heldBytes());
    }

    public JGitSource(Path cacheDir, long cacheMaxBytes, Duration timeout, SourceLimits limits) {
        this(cacheDir, cacheMaxBytes, timeout, limits, DEFAULT_HELD_BYTES);
    }

    /** @param heldBytes bytes of manifest files a revision holds whole; the documents of later files are read again when used */
    public JGitSource(Path cacheDir, long cacheMaxBytes, Duration timeout, SourceLimits limits, long heldBytes) {
        this.cache = new GitCache(cacheDir, cacheMaxBytes);
        this.limits = limits;
        this.timeoutSeconds = (int) Math.max(1, timeout.toSeconds());
        this.heldBytes = heldBytes;
    }

    /** How many times this source has listed a branch (what an ls-remote costs): one per tip resolved. */
    public long listings() {
        return listings.get();
    }

    /** How many repository folders of the cache were walked to keep it to its size. */
    public long cacheWalks() {
        return cache.measured();
    }

    /** How many fetches this source has made: a read served from the cache adds none. */
    public long fetches() {
        return fetches.get();
    }

    /**
     * The tip and its objects over one connection: the branch's ref listed, and only when the cache lacks that commit
     * one shallow fetch of it on the same connection (one round trip of git's smart HTTP fewer than an ls-remote
     * and a fetch, and no race between the two).
     */
    @Override
    public Optional<Revision> readTip(GitRemote remote, String path) {
        checkUrl(remote);
        String folder = folder(path);
        return inCache(remote, (repo, fetched) -> {
            listings.incrementAndGet();
            Optional<TipFetch.Tip> tip = TipFetch.fetch(repo, remote, timeoutSeconds, fetches);
            if (tip.isEmpty()) {
                return Optional.empty();
            }
            fetched.set(tip.get().fetched());
            return Optional.of(revision(repo, tip.get().id(), folder, remote));
        });
    }

    @Override
    public Optional<String> resolveTip(GitRemote remote) {
        checkUrl(remote);
        return inCache(remote, (repo, fetched) -> {
            listings.incrementAndGet();
            Optional<TipFetch.Tip> tip = TipFetch.fetch(repo, remote, timeoutSeconds, fetches);
            tip.ifPresent(t -> fetched.set(t.fetched()));
            return tip.map(t -> t.id().name());
        });
    }

    @Override
    public Revision read(GitRemote remote, String commit, String path) {
        checkUrl(remote);
        String folder = folder(path);
        return inCache(remote, (repo, fetched) -> {
            ObjectId id = ObjectId.fromString(commit);
            if (!repo.getObjectDatabase().has(id)) {
                throw new TransientFailureException("commit " + commit + " of " + remote.url() + " is no longer in"
                        + " the git cache (removed since its tip was read); the next attempt fetches it again", null);
            }
            return revision(repo, id, folder, remote);
        });
    }

    /** Work on a remote's cached repository, noting whether it fetched. */
    private interface CacheWork<T> {
        T run(Repository repo, AtomicBoolean fetched) throws IOException;
    }

    /**
     * Runs work on the remote's repository in the cache, under that folder's lock; the cache is kept to its size
     * after a fetch, and a folder that cannot be used is dropped so that the retry starts from a fresh fetch.
     */
    private <T> T inCache(GitRemote remote, CacheWork<T> work) {
        Path repoDir = cache.repoDir(remote.url());
        ReentrantLock lock = cache.lock(repoDir);
        lock.lock();
        AtomicBoolean fetched = new AtomicBoolean();
        try (Repository repo = open(repoDir)) {
            T result = work.run(repo, fetched);
            cache.touch(repoDir);
            return result;
        } catch (IOException e) {
            cache.drop(repoDir);
            throw new TransientFailureException("the git cache " + repoDir + " could not be used ("
                    + e.getMessage() + "); retrying", e);
        } finally {
            try {
                if (fetched.get()) {
                    cache.afterFetch(repoDir);
                }
            } finally {
                lock.unlock();
            }
        }
    }

    private Revision revision(Repository repo, ObjectId id, String folder, GitRemote remote) throws IOException {
        try {
            return new Revision(id.name(), documents(repo, id, folder, remote));
        } catch (RevisionRefusedException e) {
            // Only here is the commit known: the refusal names it, so the status says which revision to fix.
            throw e.at(id.name());
        }
    }

    private List<DeclaredDocument> documents(Repository repo, ObjectId id, String folder, GitRemote remote)
            throws IOException {
        RevisionReader reader = new RevisionReader(limits).holding(heldBytes);
        java.io.File gitDir = repo.getDirectory();
        try (RevWalk walk = new RevWalk(repo); TreeWalk tree = new TreeWalk(repo)) {
            RevCommit commit = walk.parseCommit(id);
            if (!folder.isEmpty()) {
                checkFolder(repo, commit, folder, remote);
                tree.setFilter(PathFilter.create(folder));
            }
            tree.addTree(commit.getTree());
            tree.setRecursive(true);
            while (tree.next()) {
                // Symlinks and submodules are not files of this commit; their targets are not read.
                if ((tree.getRawMode(0) & FileMode.TYPE_MASK) != FileMode.TYPE_FILE) {
                    continue;
                }
                String file = tree.getPathString();
                ObjectLoader blob = repo.open(tree.getObjectId(0), Constants.OBJ_BLOB);
                if (reader.accept(file, blob.getSize())) {
                    reader.read(file, blob.getBytes(), reload(gitDir, tree.getObjectId(0), remote));
                }
            }
        } catch (MissingObjectException e) {
            throw new RefusedException(0, null, "commit " + id.name() + " of " + remote.url()
                    + " is incomplete in the cache (" + e.getMessage() + ")", e);
        }
        return reader.documents();
    }

    /**
     * A file's content read again from the cache, for a document not held whole. The folder may have been evicted
     * since: the attempt then fails as transient, and the next one fetches again.
     */
    private static Supplier<byte[]> reload(java.io.File gitDir, ObjectId blob, GitRemote remote) {
        return () -> {
            try (Repository repo = new FileRepositoryBuilder().setGitDir(gitDir).setBare().setMustExist(true).build()) {
                return repo.open(blob, Constants.OBJ_BLOB).getBytes();
            } catch (IOException e) {
                throw new TransientFailureException("a file of " + remote.url() + " could not be read again from the"
                        + " git cache (" + e.getMessage() + "); retrying", e);
            }
        };
    }

    private static void checkFolder(Repository repo, RevCommit commit, String folder, GitRemote remote)
            throws IOException {
        try (TreeWalk entry = TreeWalk.forPath(repo, folder, commit.getTree())) {
            if (entry == null || !entry.isSubtree()) {
                throw new RevisionRefusedException(RevisionRefusedException.PATH_NOT_FOUND, folder, 0,
                        (entry == null ? "no such folder" : "a file, not a folder") + " in commit "
                                + commit.name() + " of " + remote.url() + "; fix spec.git.path", null);
            }
        }
    }

    private static Repository open(Path repoDir) throws IOException {
        boolean fresh = !Files.isDirectory(repoDir.resolve("objects"));
        if (fresh) {
            GitCache.delete(repoDir);
            Files.createDirectories(repoDir);
        }
        Repository repo = new FileRepositoryBuilder().setGitDir(repoDir.toFile()).setBare().build();
        if (fresh) {
            // JGit's automatic gc runs on a background thread after a fetch, outside the lock of this folder;
            // the cache bounds a repository's packs itself (GitCache.afterFetch). Set before create, which
            // writes the config once with them.
            repo.getConfig().setInt("gc", null, "auto", 0);
            repo.getConfig().setInt("gc", null, "autoPackLimit", 0);
            repo.create(true);
        }
        return repo;
    }

    /** The folder relative to the repository root without leading or trailing slashes; empty for the root. */
    static String folder(String path) {
        String p = path == null ? "" : path.trim();
        while (p.startsWith("./") || p.startsWith("/")) {
            p = p.substring(p.startsWith("/") ? 1 : 2);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        if (p.equals(".")) {
            return "";
        }
        for (String segment : p.split("/")) {
            if (segment.equals("..") || segment.equals(".") || (segment.isEmpty() && !p.isEmpty())) {
                throw new RefusedException(0, null, "spec.git.path '" + path + "' must be a folder inside the "
                        + "repository, like apps/prod", null);
            }
        }
        return p;
    }

    private static void checkUrl(GitRemote remote) {
        String scheme = null;
        try {
            scheme = URI.create(remote.url()).getScheme();
        } catch (IllegalArgumentException | NullPointerException e) {
            // Reported below with what to fix.
        }
        if (!"http".equals(scheme) && !"https".equals(scheme)) {
            throw new RefusedException(0, null, "spec.git.url '" + remote.url() + "' is not an http(s) URL; Rekon "
                    + "reads git over the smart HTTP protocol only", null);
        }
    }
}
