package dev.rekon.resync;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.rekon.cluster.ColdStartGate;
import dev.rekon.pipeline.ReconcileLoop;
import io.quarkus.runtime.StartupEvent;

/**
 * The start-up pass: once the application runs, the loop runs one resync of everything in the background, once, so that
 * a process started after a crash (or after events were lost while none ran) converges without waiting for the
 * next PingSource tick; a status report lost with a killed process is written here. It never delays readiness or
 * the first event: it begins once the process has answered its first event ({@link ColdStartGate}). It is one
 * pass like any other: a key that fails in it is retried by the loop, and then by the next pass, never by running
 * the whole pass again.
 */
@ApplicationScoped
public class StartupResync {

    private static final Logger LOG = Logger.getLogger(StartupResync.class);

    @Inject
    ResyncService service;

    @Inject
    ReconcileLoop loop;

    @ConfigProperty(name = "rekon.resync.on-start", defaultValue = "true")
    boolean enabled;

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        loop.background("startup", this::run);
    }

    private void run() {
        ColdStartGate.awaitOpen();
        try {
            service.run(ResyncService.ALL, ResyncScope.all());
        } catch (RuntimeException e) {
            LOG.warnf("start-up resync failed; the next pass tries again: %s", e.getMessage());
        }
    }
}
