package dev.rekon.cluster.watch;

import java.time.Duration;
import java.util.concurrent.CompletionException;

import org.jboss.logging.Logger;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.RefusedException;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Decides how the watches of one sort of scope in {@link KindWatches} come back after a start failed, what the log
 * says of the failure, and whether a watch no read asks for is stopped: {@link #BY_NAMESPACE} for a kind's watch of
 * a namespace or of the cluster, {@link #BY_NAME} for the watch of one named object.
 */
enum ScopeRules {

    /**
     * Tried again 30 s after its start failed (no RBAC for watch, CRD missing, apiserver down); 1 s after its
     * connection was closed under it (a pooled connection the apiserver had just closed), and then without waiting
     * for a read: nothing is wrong with the kind or the rights to watch it, readers would go to the apiserver for
     * half a minute for nothing, and its events are what status passes follow. A namespace's watch no read asked for
     * in a while is stopped.
     */
    BY_NAMESPACE {
        @Override
        Duration retryAfter(Throwable error) {
            return KubeErrors.closedUnderneath(error) ? Duration.ofSeconds(1) : Duration.ofSeconds(30);
        }

        @Override
        boolean startsAgainAtOnce(Throwable error) {
            return KubeErrors.closedUnderneath(error);
        }

        @Override
        void logFailed(Logger log, String what, String scope, Throwable error, Duration retry) {
            log.warnf("no watch cache of %s for %s for %d s, reading from the apiserver instead: %s", what, scope,
                    retry.toSeconds(), error);
        }
    },

    /**
     * One object a Role may grant {@code list} and {@code watch} on by its name ({@code resourceNames}), such as a
     * kubeconfig Secret. A refused watch (a Role granting only {@code get}) is tried again after
     * {@value #REFUSED_RETRY_SECONDS} s, since a Role changes seldom and each refusal is logged; any other failure
     * after {@value #RETRY_SECONDS} s. Never stopped for being idle: such an object is read seldom (once per plan of
     * a promotion), and each read of it unwatched is a call. The failure is logged by its kind as sorted at the edge
     * ({@link KubeErrors}), never by its message: that (a parse error's) could quote the object, a Secret's content.
     */
    BY_NAME {
        @Override
        Duration retryAfter(Throwable error) {
            return Duration.ofSeconds(sorted(error) instanceof RefusedException ? REFUSED_RETRY_SECONDS
                    : RETRY_SECONDS);
        }

        @Override
        boolean stopsIdle() {
            return false;
        }

        @Override
        void logFailed(Logger log, String what, String scope, Throwable error, Duration retry) {
            log.infof("%s %s is read on each use, not watched (%s); a Role granting list and watch on its name lets"
                    + " Rekon watch it; trying again in %d s", what, scope, sorted(error).getClass().getSimpleName(),
                    retry.toSeconds());
        }
    };

    static final long RETRY_SECONDS = 60;
    static final long REFUSED_RETRY_SECONDS = 900;

    /** How long readers of the scope go to the apiserver after its watch's start failed with {@code error}. */
    abstract Duration retryAfter(Throwable error);

    /** Whether the scope's watch is then started again by itself, not only by the next read that asks for it. */
    boolean startsAgainAtOnce(Throwable error) {
        return false;
    }

    /** Whether a watch of such a scope that no read asked for in a while is stopped. */
    boolean stopsIdle() {
        return true;
    }

    abstract void logFailed(Logger log, String what, String scope, Throwable error, Duration retry);

    /** The failure as sorted at the edge: a refusal is a {@link RefusedException}, whatever its HTTP status. */
    private static Throwable sorted(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e instanceof KubernetesClientException k ? KubeErrors.classify("watching by name", k) : e;
    }
}
