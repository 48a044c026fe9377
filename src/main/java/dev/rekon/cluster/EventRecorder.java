package dev.rekon.cluster;

import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
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
 * made, and two more round trips per rollout would double its latency. One that cannot be written (or
 * finds the bounded queue full) is logged, never failed.
 */
@ApplicationScoped
public class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);

    @Inject
    KubernetesClient client;

    private final ThreadPoolExecutor writer = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(10_000), r -> {
                Thread t = new Thread(r, "rekon-event-recorder");
                t.setDaemon(true);
                return t;
            }, (r, pool) -> LOG.warn("Kubernetes Event dropped: the recorder's queue is full"));

    @PreDestroy
    void drain() {
        writer.shutdown();
        try {
            writer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void normal(ObjectReference about, String reason, String message) {
        writer.execute(() -> write(about, reason, message));
    }

    private void write(ObjectReference about, String reason, String message) {
        String now = Instant.now().toString();
        try {
            client.v1().events().inNamespace(about.getNamespace()).resource(new EventBuilder()
                    .withNewMetadata()
                    .withName(about.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
                    .withNamespace(about.getNamespace())
                    .endMetadata()
                    .withInvolvedObject(about)
                    .withType("Normal")
                    .withReason(reason)
                    .withMessage(message.length() > 1024 ? message.substring(0, 1021) + "..." : message)
                    .withFirstTimestamp(now)
                    .withLastTimestamp(now)
                    .withCount(1)
                    .withNewSource().withComponent("rekon").endSource()
                    .withReportingComponent("rekon")
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record Event %s on %s %s/%s: %s", reason, about.getKind(), about.getNamespace(),
                    about.getName(), e.getMessage());
        }
    }
}
