package dev.rekon.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.rekon.core.ObjectRef;
import dev.rekon.testing.LocalCluster;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * Kubernetes Events at fleet scale on a real apiserver: a full queue combines an object's Event with those of the
 * same kind and reason in its namespace (every occurrence still counted), what cannot be combined either is
 * counted as dropped in the metrics, the writes are spread at the recorder's own rate, and they wait for a
 * pass's writes.
 */
class KubeEventRecorderTest {

    private final KubernetesClient client = LocalCluster.get().adminClient();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aFullQueueCombinesSimilarEventsAndCountsWhatItDrops() {
        String ns = namespace("events-full");
        // The writer's one thread is busy until every occurrence is recorded: the queue is full as it would be
        // when a fleet's rollouts outpace the apiserver.
        ScheduledThreadPoolExecutor writer = new ScheduledThreadPoolExecutor(1);
        CountDownLatch busy = new CountDownLatch(1);
        writer.execute(() -> await(busy));
        KubeEventRecorder recorder = new KubeEventRecorder(client, Clock.systemUTC(), registry,
                new KubeEventRecorder.Limits(1000, 1000, 3, 1), writer);
        for (int i = 0; i < 10; i++) {
            recorder.normal(deploy(ns, "app-" + i), "ImagesUpdated", "images of app-" + i + " set to build 2");
        }
        for (int i = 0; i < 5; i++) {
            recorder.warning(deploy(ns, "app-" + i), "ManualChange", "app-" + i + " changed by hand");
        }
        recorder.drain();
        busy.countDown();

        List<Event> rolled = events(ns, "ImagesUpdated");
        assertEquals(10, rolled.stream().mapToInt(Event::getCount).sum(), "every occurrence is counted: " + rolled);
        assertEquals(4, rolled.size(), "three on their own objects, seven combined into one: " + rolled);
        Event combined = rolled.stream().filter(e -> e.getCount() == 7).findFirst().orElseThrow();
        assertTrue(combined.getMessage().startsWith("(combined from similar events): 7 ImageDeploys in " + ns),
                combined.getMessage());
        assertTrue(combined.getMessage().contains("app-9: images of app-9 set to build 2"), combined.getMessage());
        assertEquals(0, events(ns, "ManualChange").size());
        assertEquals(7.0, registry.counter("rekon.events.combined").count());
        assertEquals(5.0, registry.counter("rekon.events.dropped").count());
    }

    @Test
    void writesAreSpreadAtTheRecordersRate() throws Exception {
        String ns = namespace("events-spread");
        KubeEventRecorder recorder = new KubeEventRecorder(client, Clock.systemUTC(), registry,
                new KubeEventRecorder.Limits(2, 1, 100, 10), KubeEventRecorder.writer());
        long t0 = System.nanoTime();
        for (int i = 0; i < 4; i++) {
            recorder.normal(deploy(ns, "app-" + i), "ImagesUpdated", "rolled out");
        }
        while (events(ns, "ImagesUpdated").size() < 4 && System.nanoTime() - t0 < 20_000_000_000L) {
            Thread.sleep(50);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(4, events(ns, "ImagesUpdated").size());
        assertTrue(seconds >= 1.4, "4 Events at 2 a second (burst 1) take 1.5 s, not " + seconds);
        assertEquals(0.0, registry.counter("rekon.events.dropped").count());
    }

    @Test
    void eventsWaitForTheForegroundWritesAndFollowThem() throws Exception {
        String ns = namespace("events-held");
        ForegroundWrites foreground = new ForegroundWrites();
        KubeEventRecorder recorder = new KubeEventRecorder(client, Clock.systemUTC(), registry,
                new KubeEventRecorder.Limits(1000, 1000, 100, 10), KubeEventRecorder.writer(), foreground);
        CountDownLatch recorded = new CountDownLatch(1);
        CountDownLatch passDone = new CountDownLatch(1);
        Thread pass = new Thread(() -> foreground.during(() -> {
            for (int i = 0; i < 3; i++) {
                recorder.normal(deploy(ns, "app-" + i), "ImagesUpdated", "rolled out");
            }
            recorded.countDown();
            await(passDone);
            return null;
        }));
        pass.start();
        assertTrue(recorded.await(10, TimeUnit.SECONDS));
        Thread.sleep(1500);
        assertEquals(0, events(ns, "ImagesUpdated").size(), "no Event is written while a pass writes");

        passDone.countDown();
        pass.join();
        long t0 = System.nanoTime();
        while (events(ns, "ImagesUpdated").size() < 3 && System.nanoTime() - t0 < 10_000_000_000L) {
            Thread.sleep(50);
        }
        assertEquals(3, events(ns, "ImagesUpdated").size(), "the pass's Events follow it");
        assertEquals(0.0, registry.counter("rekon.events.dropped").count());
    }

    /**
     * Held Events are woken by the pass's end, not by checking on it: while a pass writes, the recorder schedules no
     * wake-up but the one at the longest hold, and once the pass ends the Events go at once.
     */
    @Test
    void heldEventsAreWokenByThePassesEndNotByCheckingOnIt() throws Exception {
        String ns = namespace("events-woken");
        List<Long> delays = new CopyOnWriteArrayList<>();
        ScheduledThreadPoolExecutor writer = new ScheduledThreadPoolExecutor(2) {
            @Override
            public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
                delays.add(unit.toMillis(delay));
                return super.schedule(task, delay, unit);
            }
        };
        ForegroundWrites foreground = new ForegroundWrites();
        KubeEventRecorder recorder = new KubeEventRecorder(client, Clock.systemUTC(), registry,
                new KubeEventRecorder.Limits(1000, 1000, 100, 10), writer, foreground);
        try {
            CountDownLatch recorded = new CountDownLatch(1);
            CountDownLatch passDone = new CountDownLatch(1);
            Thread pass = new Thread(() -> foreground.during(() -> {
                for (int i = 0; i < 3; i++) {
                    recorder.normal(deploy(ns, "app-" + i), "ImagesUpdated", "rolled out");
                }
                recorded.countDown();
                await(passDone);
                return null;
            }));
            pass.start();
            assertTrue(recorded.await(10, TimeUnit.SECONDS));
            Thread.sleep(1000);
            List<Long> whilePassWrites = List.copyOf(delays);
            assertEquals(List.of(), whilePassWrites.stream()
                    .filter(d -> d > 0 && d < KubeEventRecorder.MAX_HOLD_MILLIS - 10_000).toList(),
                    "wake-ups scheduled while the pass writes, of all " + whilePassWrites);
            assertEquals(0, events(ns, "ImagesUpdated").size(), "no Event is written while a pass writes");

            passDone.countDown();
            pass.join();
            long t0 = System.nanoTime();
            while (events(ns, "ImagesUpdated").size() < 3 && System.nanoTime() - t0 < 10_000_000_000L) {
                Thread.sleep(20);
            }
            assertEquals(3, events(ns, "ImagesUpdated").size(), "the pass's Events follow it");
        } finally {
            writer.shutdownNow();
        }
    }

    private String namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .serverSideApply();
        client.v1().events().inNamespace(name).delete();
        return name;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static ObjectRef deploy(String ns, String name) {
        return new ObjectRef("rekon.dev/v1alpha1", "ImageDeploy", ns, name);
    }

    private List<Event> events(String ns, String reason) {
        return client.v1().events().inNamespace(ns).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason())).toList();
    }
}
