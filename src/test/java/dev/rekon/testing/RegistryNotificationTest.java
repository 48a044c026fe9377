package dev.rekon.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Each application start loads the test resources in a class loader of its own, so another start's resource may
 * have left its own port in the JVM's system properties, and the resources of one start run in no fixed order.
 */
class RegistryNotificationTest {

    @Test
    void theSharedRegistryNotifiesThePortTheApplicationListensOnWhicheverResourceStartsFirst() {
        String before = System.getProperty("rekon.test.webhook-url");
        try {
            System.setProperty("rekon.test.webhook-url", "http://127.0.0.1:1/webhooks/distribution");
            String url = LocalRegistry.notificationUrl();
            assertEquals("http://127.0.0.1:" + RekonTestResource.port() + "/webhooks/distribution", url);
        } finally {
            if (before == null) {
                System.clearProperty("rekon.test.webhook-url");
            } else {
                System.setProperty("rekon.test.webhook-url", before);
            }
        }
    }
}
