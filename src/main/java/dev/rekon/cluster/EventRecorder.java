package dev.rekon.cluster;

import java.time.Instant;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Writes Kubernetes Events (core/v1) on the objects Rekon changes, so {@code kubectl describe} shows them.
 * An Event that cannot be written is logged, never failed: the change itself has already been made.
 */
@ApplicationScoped
public class EventRecorder {

    private static final Logger LOG = Logger.getLogger(EventRecorder.class);

    @Inject
    KubernetesClient client;

    public void normal(ObjectReference about, String reason, String message) {
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
