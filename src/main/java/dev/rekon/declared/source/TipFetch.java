package dev.rekon.declared.source;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.FetchConnection;
import org.eclipse.jgit.transport.PackLock;
import org.eclipse.jgit.transport.RefSpec;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.transport.Transport;
import org.eclipse.jgit.transport.URIish;

/**
 * One connection to a remote for a branch's tip: the branch's ref read from the advertisement (git protocol v0)
 * and, only when the cache lacks that commit, a shallow fetch (depth 1) of it on the same connection, recorded as
 * the cache's ref of the branch.
 */
final class TipFetch {

    private TipFetch() {
    }

    /** The branch's tip, and whether it had to be fetched. */
    record Tip(ObjectId id, boolean fetched) {
    }

    /** Lists the branch; fetches its tip (depth 1) when the cache lacks it, and records it as the branch's ref. */
    static Optional<Tip> fetch(Repository repo, GitRemote remote, int timeoutSeconds, AtomicLong fetches) {
        // Protocol v0, not v2: v2's advertisement holds no refs, so listing the branch is a request of its own (an
        // ls-refs), each a process of a CGI git server. v0's advertisement lists the refs, and a fetch without
        // haves to negotiate is then one request: 1 request per unchanged branch (v2: 2), 2 per fetch (v2: 3).
        // The price: the advertisement names every ref of the repository, where ls-refs names the one branch.
        repo.getConfig().setString("protocol", null, "version", "0");
        try (Transport transport = Transport.open(repo, new URIish(remote.url()))) {
            GitAuth.configure(transport, remote);
            transport.setTimeout(timeoutSeconds);
            transport.setTagOpt(TagOpt.NO_TAGS);
            transport.setDepth(1);
            try (FetchConnection connection = transport.openFetch(List.of(new RefSpec(remote.ref())))) {
                Ref ref = connection.getRef(remote.ref());
                if (ref == null || ref.getObjectId() == null) {
                    return Optional.empty();
                }
                ObjectId tip = ref.getObjectId();
                if (repo.getObjectDatabase().has(tip)) {
                    return Optional.of(new Tip(tip, false));
                }
                fetches.incrementAndGet();
                try {
                    connection.fetch(NullProgressMonitor.INSTANCE, List.of(ref), Set.of());
                } finally {
                    connection.getPackLocks().forEach(TipFetch::unlock);
                }
                recordTip(repo, remote, tip);
                return Optional.of(new Tip(tip, true));
            }
        } catch (Exception e) {
            // Transport failures are IOExceptions too: sorted like those of a command (unknown ones as transient).
            throw GitErrors.sort(remote, "fetch branch " + remote.branch(), e);
        }
    }

    /** The cache's ref of the branch moved to its tip, so that the objects fetched stay referenced. */
    private static void recordTip(Repository repo, GitRemote remote, ObjectId tip) throws IOException {
        RefUpdate update = repo.updateRef(remote.ref());
        update.setNewObjectId(tip);
        update.setForceUpdate(true);
        update.update();
    }

    private static void unlock(PackLock lock) {
        try {
            lock.unlock();
        } catch (IOException e) {
            // A stale .keep file only stops the cache from repacking this pack; it is deleted with the folder.
        }
    }

}
