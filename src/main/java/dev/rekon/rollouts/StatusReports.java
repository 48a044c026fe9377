package dev.rekon.rollouts;

import java.time.Duration;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The ImageDeploy status reports of this process: each is written after its event's reply, through one
 * {@link StatusReportQueue} keyed by ImageDeploy, so a burst of rollouts of one ImageDeploy becomes at most
 * two status writes per {@code rekon.rollouts.status-report-interval}. On shutdown (Knative scaling down) what
 * waits is written before the process ends.
 */
@ApplicationScoped
public class StatusReports {

    private static final Duration SHUTDOWN = Duration.ofSeconds(10);

    @Inject
    RolloutConfig config;

    private StatusReportQueue queue;

    StatusReports() {
    }

    /** For service tests: reports written through the given queue. */
    StatusReports(StatusReportQueue queue) {
        this.queue = queue;
    }

    @PostConstruct
    void start() {
        queue = new StatusReportQueue(config.statusReportInterval(), 2);
    }

    /** Queues the report for the ImageDeploy; {@code applied} when its event changed the Deployment. */
    public void submit(ImageDeployView idp, boolean applied, StatusReportQueue.Report report) {
        queue.submit(idp.group() + "/" + idp.namespace() + "/" + idp.name(), report, applied);
    }

    /** Waits until every queued report is written or given up; true when none waits. */
    public boolean awaitIdle(Duration timeout) {
        return queue.awaitIdle(timeout);
    }

    @PreDestroy
    void stop() {
        queue.shutdown(SHUTDOWN);
    }
}
