package dev.rekon.declared;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.rekon.core.ObjectRef;
import dev.rekon.core.TransientFailureException;
import dev.rekon.declared.source.GitCredentials;
import dev.rekon.declared.source.GitRemote;
import dev.rekon.declared.source.Revision;

/**
 * What one input has read of git, of git credentials, of the kinds the cluster serves and, for the orphan scan, of
 * each namespaced kind, shared by every DeclaredState it concerns and by every attempt of each (a pass's
 * report-mode plan and its write included): a push or an event resolves a branch tip once; a resync pass once per
 * distinct repository, branch and credentials, however many DeclaredStates follow it; a retry after a lost race reads no git at all.
 * Remotes are told apart by their credentials too, so a DeclaredState never reads a repository through another's.
 * A report ({@link #lastKnown}) reads no git: it plans from the tip the last pass of this replica resolved; the
 * page ({@link #held}) reads neither git nor the cluster.
 */
public final class TipMemo {

    private final boolean resolves;
    private final boolean held;
    private final ConcurrentHashMap<String, Once<Optional<GitCredentials>>> credentials = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Once<Optional<String>>> tips = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Once<Revision>> revisions = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Once<List<?>>> scans = new ConcurrentHashMap<>();
    private volatile Once<?> kinds;

    private TipMemo(boolean resolves, boolean held) {
        this.resolves = resolves;
        this.held = held;
    }

    /** One input's memo: it lists each branch tip it needs once. */
    public static TipMemo perInput() {
        return new TipMemo(true, false);
    }

    /** A report's: no tip is listed, the last one resolved stands. */
    public static TipMemo lastKnown() {
        return new TipMemo(false, false);
    }

    /**
     * The page's: no tip is listed and no Secret read; the tip and the credentials the last input of each
     * DeclaredState used stand ({@link LastTips#usedBy}), and its objects as its last attempt read them.
     */
    public static TipMemo held() {
        return new TipMemo(false, true);
    }

    /** Whether this input reads nothing but what the process holds (the page). */
    public boolean holds() {
        return held;
    }

    /** Whether this input lists branch tips (false: a report, planning from the last tips resolved). */
    public boolean resolves() {
        return resolves;
    }

    Optional<GitCredentials> credentials(String namespace, String secret, Supplier<Optional<GitCredentials>> read) {
        return credentials.computeIfAbsent(namespace + "/" + secret, k -> new Once<>(read)).get();
    }

    Optional<String> tip(GitRemote remote, Supplier<Optional<String>> resolve) {
        return tips.computeIfAbsent(id(remote), k -> new Once<>(resolve)).get();
    }

    Revision revision(GitRemote remote, String commit, String path, Supplier<Revision> read) {
        return revisions.computeIfAbsent(id(remote) + "|" + commit + "|" + path, k -> new Once<>(read)).get();
    }

    /**
     * The orphan scan's lists of {@code kinds} (each in its namespace, or every namespace when null) as
     * {@code identity} sees them (null: Rekon itself), each made once per input for every DeclaredState that needs
     * it; answered in the order of {@code kinds}. A caller first lists the kinds no other worker is listing, then
     * waits for the others: the workers of a pass list different kinds at once, where each used to queue behind the
     * one listing the first kind (a list answered 429 held every worker for its Retry-After). A scan keeps
     * identities ({@link dev.rekon.declared.plan.Scanned}), not trees: the lists stay until the pass ends.
     */
    @SuppressWarnings("unchecked")
    <T> Map<ObjectRef, List<T>> scan(String identity, List<ObjectRef> kinds, Function<ObjectRef, List<T>> list) {
        Map<ObjectRef, Once<List<?>>> lists = new LinkedHashMap<>();
        for (ObjectRef kind : kinds) {
            lists.put(kind, scans.computeIfAbsent((identity == null ? "-" : identity) + "|" + kind.apiVersion() + "|"
                    + kind.kind() + "|" + (kind.namespace() == null ? "*" : kind.namespace()),
                    k -> new Once<>(() -> list.apply(kind))));
        }
        lists.values().forEach(Once::computeUnlessBusy);
        Map<ObjectRef, List<T>> out = new LinkedHashMap<>();
        lists.forEach((kind, once) -> out.put(kind, (List<T>) once.get()));
        return out;
    }

    /** The kinds the cluster serves as {@code read} answers them, read once per input. */
    @SuppressWarnings("unchecked")
    <T> T kinds(Supplier<T> read) {
        Once<?> once = kinds;
        if (once == null) {
            synchronized (this) {
                if (kinds == null) {
                    kinds = new Once<>(read);
                }
                once = kinds;
            }
        }
        return (T) once.get();
    }

    /** A remote as its URL, branch and credentials (as a SHA-256, so that no two credentials share a tip). */
    static String id(GitRemote remote) {
        GitCredentials c = remote.credentials();
        if (c == null) {
            return remote.url() + "@" + remote.branch() + "#-";
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest((c.username() + "\0" + c.password())
                    .getBytes(StandardCharsets.UTF_8));
            return remote.url() + "@" + remote.branch() + "#" + HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A value computed by the first caller, other callers waiting for it; a failure is kept like a value, so that a
     * git server that is down is asked once per input, not once per DeclaredState.
     */
    private static final class Once<T> {
        private final Supplier<T> compute;
        private boolean claimed;
        private boolean done;
        private T value;
        private RuntimeException failure;

        Once(Supplier<T> compute) {
            this.compute = compute;
        }

        T get() {
            computeUnlessBusy();
            return await();
        }

        /** Computes the value on this thread unless another thread does (or did); never throws its failure. */
        void computeUnlessBusy() {
            synchronized (this) {
                if (claimed) {
                    return;
                }
                claimed = true;
            }
            T v = null;
            RuntimeException f = null;
            try {
                v = compute.get();
            } catch (RuntimeException e) {
                f = e;
            }
            synchronized (this) {
                value = v;
                failure = f;
                done = true;
                notifyAll();
            }
        }

        private synchronized T await() {
            while (!done) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new TransientFailureException("interrupted while waiting for a shared read", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            return value;
        }
    }
}
