package dev.rekon.webhooks;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Remembers the event ids already handled so that a redelivered event changes nothing twice. In memory and
 * bounded (least recently seen ids are forgotten first, {@code rekon.webhooks.dedupe-capacity}); ids are lost on
 * restart, which is safe because every router is idempotent by digest — dedupe only saves the work.
 */
@ApplicationScoped
public class DeliveryLedger {

    private final Map<String, Boolean> seen;

    @Inject
    public DeliveryLedger(@ConfigProperty(name = "rekon.webhooks.dedupe-capacity", defaultValue = "10000") int capacity) {
        this.seen = new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** True when the id is new (and now taken); false for a duplicate. */
    public synchronized boolean claim(String eventId) {
        return seen.putIfAbsent(eventId, Boolean.TRUE) == null;
    }

    /** Forgets an id whose handling failed transiently, so that the sender's retry is handled. */
    public synchronized void release(String eventId) {
        seen.remove(eventId);
    }
}
