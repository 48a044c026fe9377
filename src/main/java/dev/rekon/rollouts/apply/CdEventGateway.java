package dev.rekon.rollouts.apply;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import dev.rekon.rollouts.CdEventsConfig;
import dev.rekon.rollouts.view.ImageDeployView;
import dev.rekon.rollouts.view.RolloutRecord;
import dev.rekon.web.CloudEventSink;
import dev.rekon.web.SendRetry;
import io.cloudevents.CloudEvent;
import io.cloudevents.jackson.JsonFormat;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Sends the CDEvents of rollouts a status write has just recorded ({@link ServiceEvents}) to
 * {@code rekon.cdevents.sink}, structured ({@code application/cloudevents+json}), without waiting for the answer:
 * the status write is what made the rollout reported once. A send the sink could not take for a moment (no
 * answer, 5xx, 429) goes out again a few times within about 1.5 s ({@link SendRetry#DEFAULT}, each counted in
 * {@value #RETRIED}), so that a sink restarting loses no rollout; one that still fails, or is refused (another
 * 4xx), is logged and counted ({@value #METRIC}, tag {@code outcome}), never a failure of the reconcile that
 * wrote it.
 */
@ApplicationScoped
public class CdEventGateway {

    static final String METRIC = "rekon.cdevents.sent";
    static final String RETRIED = "rekon.cdevents.retried";
    private static final Logger LOG = Logger.getLogger(CdEventGateway.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final JsonFormat FORMAT = new JsonFormat();

    @Inject
    CdEventsConfig config;

    @Inject
    MeterRegistry metrics;

    @Inject
    Clock clock;

    private CloudEventSink sink;

    /** Sends one event per record; nothing when no sink is set. */
    public void rolledOut(ImageDeployView idp, List<RolloutRecord> records) {
        if (records.isEmpty() || config.sink().isEmpty()) {
            return;
        }
        URI sink = config.sink().get();
        for (RolloutRecord r : records) {
            CloudEvent event;
            try {
                event = ServiceEvents.of(idp.namespace(), idp.name(), r, config.environment(), config.source(),
                        UUID.randomUUID(), clock.instant());
            } catch (IllegalArgumentException e) {
                failed(r, idp, e.getMessage());
                continue;
            }
            sink().send(sink, JsonFormat.CONTENT_TYPE, FORMAT.serialize(event), SendRetry.DEFAULT,
                    () -> metrics.counter(RETRIED, "type", event.getType()).increment()).whenComplete((sent, error) -> {
                if (error != null) {
                    failed(r, idp, (error instanceof java.util.concurrent.CompletionException && error.getCause() != null
                            ? error.getCause() : error).toString());
                } else {
                    metrics.counter(METRIC, "outcome", "sent", "type", event.getType()).increment();
                }
            });
        }
    }

    private synchronized CloudEventSink sink() {
        if (sink == null) {
            sink = new CloudEventSink(TIMEOUT);
        }
        return sink;
    }

    private void failed(RolloutRecord r, ImageDeployView idp, String why) {
        metrics.counter(METRIC, "outcome", "failed", "type", ServiceEvents.type(r.change())).increment();
        LOG.warnf("CDEvent %s of ImageDeploy %s/%s (%s) not sent: %s", r.change(), idp.namespace(), idp.name(),
                r.image(), why);
    }
}
