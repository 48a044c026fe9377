package dev.rekon.promotions.apply;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.jboss.logging.Logger;

import dev.rekon.cluster.KubeErrors;
import dev.rekon.core.RefusedException;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Decides whether reading a stage's kubeconfig Secret needs a call. Each Secret a remote stage names is watched by
 * its name alone (a field selector on {@code metadata.name}, which a Role granting {@code get}, {@code list} and
 * {@code watch} on that name allows), in the ImagePromotion's own namespace, from its first read. While that watch has
 * synced and runs, the Secret is taken from it as the apiserver has it: a rotated or deleted kubeconfig shows there
 * as soon as the watch delivers the change. Until then, and when the apiserver refuses the watch (a Role granting
 * only {@code get}) or it fails, the Secret is read, and its watch tried again {@value #RETRY_SECONDS} s later
 * ({@value #REFUSED_RETRY_SECONDS} s after a refusal: a Role changes seldom, and each refused start is logged). The
 * Secret's content is never logged.
 */
final class KubeconfigSecretWatches {

    private static final Logger LOG = Logger.getLogger(KubeconfigSecretWatches.class);
    static final long RETRY_SECONDS = 60;
    static final long REFUSED_RETRY_SECONDS = 900;
    private static final long START_SECONDS = 10;

    /** A Secret as its watch holds it: {@code secret} null when there is none. */
    record Held(Secret secret) {
    }

    /**
     * One Secret's watch: {@code retryAt} ({@link System#nanoTime}) when its start failed, the time a new one may be
     * started; else null.
     */
    private record Watch(SharedIndexInformer<Secret> informer, boolean synced, Long retryAt) {

        boolean answers() {
            return synced && retryAt == null && !informer.stopped().toCompletableFuture().isDone();
        }
    }

    private final KubernetesClient client;
    private final LongSupplier nanos;
    private final Map<String, Watch> watches = new ConcurrentHashMap<>();

    KubeconfigSecretWatches(KubernetesClient client) {
        this(client, System::nanoTime);
    }

    KubeconfigSecretWatches(KubernetesClient client, LongSupplier nanos) {
        this.client = client;
        this.nanos = nanos;
    }

    /** The Secret as its watch holds it; empty when the watch cannot tell (not synced, refused, failed): read it. */
    Optional<Held> held(String namespace, String name) {
        String key = namespace + "/" + name;
        Watch w = watches.get(key);
        if (w == null || w.retryAt() != null && nanos.getAsLong() - w.retryAt() >= 0
                || w.retryAt() == null && w.synced() && !w.answers()) {
            start(key, namespace, name, w);
            return Optional.empty();
        }
        return w.answers() ? Optional.of(new Held(w.informer().getStore().getByKey(key))) : Optional.empty();
    }

    private void start(String key, String namespace, String name, Watch seen) {
        SharedIndexInformer<Secret> informer;
        try {
            informer = client.secrets().inNamespace(namespace).withField("metadata.name", name).runnableInformer(0);
        } catch (RuntimeException e) {
            watches.put(key, new Watch(null, false, retryAt(e)));
            return;
        }
        Watch starting = new Watch(informer, false, null);
        Watch won = seen == null ? watches.putIfAbsent(key, starting) : watches.replace(key, seen, starting) ? null
                : watches.get(key);
        if (won != null) {
            return;
        }
        if (seen != null && seen.informer() != null) {
            seen.informer().stop();
        }
        informer.start().toCompletableFuture().orTimeout(START_SECONDS, TimeUnit.SECONDS).whenComplete((ok, error) -> {
            if (error == null) {
                watches.replace(key, starting, new Watch(informer, true, null));
            } else {
                informer.stop();
                watches.replace(key, starting, new Watch(informer, false, retryAt(error)));
                LOG.infof("kubeconfig Secret %s is read on each use, not watched (%s); a Role granting list and watch"
                        + " on its name lets Rekon watch it; trying again in %d s", key, why(error),
                        refused(error) ? REFUSED_RETRY_SECONDS : RETRY_SECONDS);
            }
        });
    }

    private long retryAt(Throwable error) {
        return nanos.getAsLong() + TimeUnit.SECONDS.toNanos(refused(error) ? REFUSED_RETRY_SECONDS : RETRY_SECONDS);
    }

    /** Whether the apiserver refused the watch (sorted at the edge, {@link KubeErrors}): not worth trying soon. */
    private static boolean refused(Throwable error) {
        return sorted(error) instanceof RefusedException;
    }

    /** The failure's kind as sorted at the edge: never a message that could quote the Secret. */
    private static String why(Throwable error) {
        return sorted(error).getClass().getSimpleName();
    }

    private static Throwable sorted(Throwable error) {
        Throwable e = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        return e instanceof KubernetesClientException k ? KubeErrors.classify("watching a kubeconfig Secret", k) : e;
    }

    void stop() {
        watches.values().stream().map(Watch::informer).filter(i -> i != null).forEach(SharedIndexInformer::stop);
        watches.clear();
    }
}
