package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;

/** A view is made once per object version, and again for any other version. */
class ViewMemoTest {

    private final ViewMemo<String> memo = new ViewMemo<>();
    private final AtomicInteger made = new AtomicInteger();

    private static ConfigMap at(String version) {
        return new ConfigMapBuilder().withNewMetadata().withName("c").withResourceVersion(version).endMetadata().build();
    }

    private String view(ConfigMap c) {
        made.incrementAndGet();
        return "view of " + c.getMetadata().getResourceVersion();
    }

    @Test
    void theSameVersionReusesTheViewAnotherVersionMakesANewOne() {
        String first = memo.of("ns/c", at("5"), this::view);
        assertSame(first, memo.of("ns/c", at("5"), this::view));
        assertEquals(1, made.get());
        assertEquals("view of 6", memo.of("ns/c", at("6"), this::view));
        assertEquals("view of 5", memo.of("ns/c", at("5"), this::view), "an older version read again is converted again");
        assertEquals(3, made.get());
    }

    @Test
    void anObjectWithoutAVersionIsAlwaysConverted() {
        memo.of("ns/c", at(null), this::view);
        memo.of("ns/c", at(null), this::view);
        assertEquals(2, made.get());
    }
}
