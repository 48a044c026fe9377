package dev.rekon.cluster;

import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Writes Kubernetes Events (core/v1) on the objects Rekon changes, so {@code kubectl describe} shows them.
 * Events are written after the reply, off the event's path: they are information about a change already
 * made. Like client-go's event correlator, it writes at most one Event per object and reason per second:
 * occurrences in between are combined into the next one (its {@code count}, first and last timestamps, and
 * the latest message), so a burst of rollouts does not become a burst of writes competing with them. One
 * that cannot be written is logged, never failed.
 */
@ApplicationScoped
public class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);
    static final long WINDOW_MILLIS = 1000;
    private static final int MAX_PENDING = 10_000;

    @Inject
    KubernetesClient client;

    private final ScheduledThreadPoolExecutor writer = new ScheduledThreadPoolExecutor(2, r -> {
        Thread t = new Thread(r, "rekon-event-recorder");
        t.setDaemon(true);
        return t;
    });

    private final Map<Key, Pending> pending = new ConcurrentHashMap<>();
    private final Map<Key, Long> lastWritten = new ConcurrentHashMap<>();

    private record Key(String namespace, String kind, String name, String reason, String type) {
    }

    /** Occurrences not written yet: how many, since when, and the latest one's message. */
    private record Pending(ObjectReference about, int count, Instant first, Instant last, String message) {
    }

    @PreDestroy
    void drain() {
        writer.shutdown();
        pending.keySet().forEach(this::flush);
    }

    public void normal(ObjectReference about, String reason, String message) {
        record(about, reason, message, "Normal");
    }

    /** An Event of type Warning: something a person should look at, such as a manual change Rekon leaves alone. */
    public void warning(ObjectReference about, String reason, String message) {
        record(about, reason, message, "Warning");
    }

    private void record(ObjectReference about, String reason, String message, String type) {
        Key key = new Key(about.getNamespace(), about.getKind(), about.getName(), reason, type);
        Instant now = Instant.now();
        if (pending.size() >= MAX_PENDING && !pending.containsKey(key)) {
            LOG.warnf("Kubernetes Event %s on %s %s dropped: %d Events are waiting", reason, about.getKind(),
                    about.getName(), MAX_PENDING);
            return;
        }
        Pending after = pending.merge(key, new Pending(about, 1, now, now, message),
                (old, n) -> new Pending(old.about(), old.count() + 1, old.first(), now, message));
        // The merge is atomic: exactly one caller per window creates the entry at count 1, and it schedules the write.
        if (after.count() == 1) {
            long wait = Math.max(0, lastWritten.getOrDefault(key, 0L) + WINDOW_MILLIS - System.currentTimeMillis());
            try {
                writer.schedule(() -> flush(key), wait, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                flush(key);
            }
        }
    }

    private void flush(Key key) {
        Pending p = pending.remove(key);
        if (p == null) {
            return;
        }
        lastWritten.put(key, System.currentTimeMillis());
        if (lastWritten.size() > MAX_PENDING) {
            lastWritten.clear();
        }
        write(p, key.reason(), key.type());
    }

    private void write(Pending p, String reason, String type) {
        ObjectReference about = p.about();
        try {
            client.v1().events().inNamespace(about.getNamespace()).resource(new EventBuilder()
                    .withNewMetadata()
                    .withName(about.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
                    .withNamespace(about.getNamespace())
                    .endMetadata()
                    .withInvolvedObject(about)
                    .withType(type)
                    .withReason(reason)
                    .withMessage(p.message().length() > 1024 ? p.message().substring(0, 1021) + "..." : p.message())
                    .withFirstTimestamp(p.first().toString())
                    .withLastTimestamp(p.last().toString())
                    .withCount(p.count())
                    .withNewSource().withComponent("rekon").endSource()
                    .withReportingComponent("rekon")
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record Event %s on %s %s/%s: %s", reason, about.getKind(), about.getNamespace(),
                    about.getName(), e.getMessage());
        }
    }
}
