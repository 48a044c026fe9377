package dev.rekon.resync;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import dev.rekon.cluster.ColdStartGate;
import io.quarkus.runtime.StartupEvent;

/**
 * The start-up pass: once the application runs, a background thread runs one resync of everything, so that a
 * process started after a crash (or after events were lost while none ran) converges without waiting for the
 * next PingSource tick; a status report lost with a killed process is written here. It never delays readiness or
 * the first event: it begins once the process has answered its first event ({@link ColdStartGate}). When the
 * watches cannot start yet (apiserver unreachable), it tries again every 30 s, a few times.
 */
@ApplicationScoped
public class StartupResync {

    private static final Logger LOG = Logger.getLogger(StartupResync.class);
    private static final int ATTEMPTS = 5;
    private static final long RETRY_MILLIS = 30_000;

    @Inject
    ResyncService service;

    @ConfigProperty(name = "rekon.resync.on-start", defaultValue = "true")
    boolean enabled;

    void start(@Observes StartupEvent event) {
        if (!enabled) {
            return;
        }
        Thread pass = new Thread(this::run, "rekon-startup-resync");
        pass.setDaemon(true);
        pass.start();
    }

    private void run() {
        ColdStartGate.awaitOpen();
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            try {
                ResyncReply reply = service.run(ResyncService.ALL, ResyncScope.all());
                if (reply.areas().stream().flatMap(a -> a.objects().stream()).noneMatch(i -> i.object() == null)) {
                    return;
                }
            } catch (RuntimeException e) {
                LOG.warnf("start-up resync failed (attempt %d of %d): %s", attempt, ATTEMPTS, e.getMessage());
            }
            try {
                Thread.sleep(RETRY_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
