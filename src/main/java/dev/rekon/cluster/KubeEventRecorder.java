package dev.rekon.cluster;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import io.fabric8.kubernetes.api.model.EventBuilder;
import dev.rekon.core.ObjectRef;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The {@link EventRecorder} on the Kubernetes API: writes Kubernetes Events (core/v1) on the objects Rekon changes,
 * so {@code kubectl describe} shows them. Events are written after the reply, off the event's path: they are
 * information about a change already made. It decides how many writes they cost, as client-go's event correlator
 * does: at most one Event per object and reason per second, occurrences in between combined into the next one
 * (its {@code count}, first and last timestamps, and the latest message); writes spread at a rate of their own
 * ({@code rekon.events.qps} and {@code .burst}), so a fleet's rollouts do not become a burst of writes competing
 * with the rollouts themselves, and not at all while a pass's writes are under way ({@link ForegroundWrites}: the
 * Events follow its reply as soon as it tells of its end, after at most {@value #MAX_HOLD_MILLIS} ms of waiting); and, while
 * {@code rekon.events.max-pending} objects wait, an object's occurrence is
 * combined with the others of its namespace, kind, type and reason into one Event on the first of them ("combined
 * from similar events", every occurrence in its count). Only what cannot be combined either is dropped. Combined
 * and dropped occurrences are counted ({@code rekon.events.combined}, {@code rekon.events.dropped}). One that
 * cannot be written is logged, never failed.
 */
@ApplicationScoped
public class KubeEventRecorder implements EventRecorder {

    private static final Logger LOG = Logger.getLogger(KubeEventRecorder.class);
    static final long WINDOW_MILLIS = 1000;
    /** Held no longer: a pass of 10,000 new ImageDeploys takes minutes, and its Events would otherwise come after. */
    static final long MAX_HOLD_MILLIS = 60_000;

    /**
     * @param maxPending    objects whose Events may wait on their own
     * @param maxCombined   Events of similar objects combined (per namespace, kind, type and reason) beyond those
     */
    record Limits(double qps, int burst, int maxPending, int maxCombined) {
    }

    @Inject
    KubernetesClient client;

    @Inject
    Clock clock;

    @Inject
    MeterRegistry registry;

    @Inject
    ForegroundWrites foreground;

    @ConfigProperty(name = "rekon.events.qps", defaultValue = "50")
    double qps;

    @ConfigProperty(name = "rekon.events.burst", defaultValue = "100")
    int burst;

    @ConfigProperty(name = "rekon.events.max-pending", defaultValue = "10000")
    int maxPending;

    private int maxCombined;
    private ClientRateLimit rate;
    private Counter combined;
    private Counter dropped;
    private final ScheduledExecutorService writer;

    private final Map<Key, Pending> pending = new ConcurrentHashMap<>();
    private final Map<Key, Long> lastWritten = new ConcurrentHashMap<>();
    /** Events whose turn came while a pass wrote, oldest first, released together. */
    private final ConcurrentLinkedQueue<Key> held = new ConcurrentLinkedQueue<>();
    /**
     * The hold under way (0: none): the pass's end and the longest hold each wake it, and only the first to come
     * releases it, so that a wake-up of a hold already released does nothing.
     */
    private final AtomicLong hold = new AtomicLong();
    private final AtomicLong holds = new AtomicLong();

    /** {@code name} null: the combined Event of a namespace's similar objects. */
    private record Key(String namespace, String kind, String name, String type, String reason) {

        Key similar() {
            return new Key(namespace, kind, null, type, reason);
        }
    }

    /** Occurrences not written yet: how many, since when, and the latest one's message and object. */
    private record Pending(ObjectRef about, int count, Instant first, Instant last, String message, String latest) {
    }

    KubeEventRecorder() {
        this.writer = writer();
    }

    /** For tests: the recorder on {@code client} with these limits, writing on {@code writer}'s threads. */
    KubeEventRecorder(KubernetesClient client, Clock clock, MeterRegistry registry, Limits limits,
            ScheduledExecutorService writer) {
        this(client, clock, registry, limits, writer, new ForegroundWrites());
    }

    /** The same, waiting for {@code foreground}'s writes. */
    KubeEventRecorder(KubernetesClient client, Clock clock, MeterRegistry registry, Limits limits,
            ScheduledExecutorService writer, ForegroundWrites foreground) {
        this.foreground = foreground;
        this.client = client;
        this.clock = clock;
        this.registry = registry;
        this.qps = limits.qps();
        this.burst = limits.burst();
        this.maxPending = limits.maxPending();
        this.writer = writer;
        start(limits.maxCombined());
    }

    static ScheduledExecutorService writer() {
        return new ScheduledThreadPoolExecutor(2, r -> {
            Thread t = new Thread(r, "rekon-event-recorder");
            t.setDaemon(true);
            return t;
        });
    }

    @PostConstruct
    void start() {
        start(Math.max(1, maxPending / 10));
    }

    private void start(int maxCombined) {
        this.maxCombined = maxCombined;
        this.rate = new ClientRateLimit(qps, burst);
        this.combined = registry.counter("rekon.events.combined");
        this.dropped = registry.counter("rekon.events.dropped");
    }

    @PreDestroy
    void drain() {
        writer.shutdown();
        pending.keySet().forEach(this::write);
    }

    @Override
    public void normal(ObjectRef about, String reason, String message) {
        record("Normal", about, reason, message);
    }

    @Override
    public void warning(ObjectRef about, String reason, String message) {
        record("Warning", about, reason, message);
    }

    private void record(String type, ObjectRef about, String reason, String message) {
        Key key = new Key(about.namespace(), about.kind(), about.name(), type, reason);
        if (pending.size() >= maxPending && !pending.containsKey(key)) {
            key = key.similar();
            if (!pending.containsKey(key) && pending.size() >= maxPending + maxCombined) {
                dropped.increment();
                if (dropped.count() == 1 || dropped.count() % 1000 == 0) {
                    LOG.warnf("Kubernetes Event %s on %s %s dropped: %d Events wait (%.0f dropped so far)", reason,
                            about.kind(), about.name(), pending.size(), dropped.count());
                }
                return;
            }
            combined.increment();
        }
        Instant now = clock.instant();
        Pending after = pending.merge(key, new Pending(about, 1, now, now, message, about.name()),
                (old, n) -> new Pending(old.about(), old.count() + 1, old.first(), now, message, n.latest()));
        // The merge is atomic: exactly one caller per window creates the entry at count 1, and it schedules the write.
        if (after.count() == 1) {
            Key written = key;
            long wait = Math.max(0, lastWritten.getOrDefault(key, 0L) + WINDOW_MILLIS - clock.millis());
            schedule(() -> spread(written), wait);
        }
    }

    /**
     * Takes the write's turn at the recorder's rate, once no pass writes; the occurrences that arrive meanwhile join
     * it.
     */
    private void spread(Key key) {
        if (foreground.underWay() && !heldLongEnough(key)) {
            held.add(key);
            long next = holds.incrementAndGet();
            if (hold.compareAndSet(0, next)) {
                foreground.whenIdle(() -> schedule(() -> passEnded(next), 0));
                schedule(() -> heldLongest(next), untilHeldLongEnough(key));
            }
            return;
        }
        takeTurn(key);
    }

    /** The last pass ended: the held Events take their turns, unless another pass began before this ran. */
    private void passEnded(long h) {
        if (hold.get() != h) {
            return;
        }
        if (foreground.underWay()) {
            foreground.whenIdle(() -> schedule(() -> passEnded(h), 0));
            return;
        }
        release(h);
    }

    /** The oldest held Event has waited as long as any may: all take their turns, the pass under way or not. */
    private void heldLongest(long h) {
        Key oldest = held.peek();
        long left = oldest == null ? 0 : untilHeldLongEnough(oldest);
        if (hold.get() == h && left > 0 && foreground.underWay()) {
            schedule(() -> heldLongest(h), left);
            return;
        }
        release(h);
    }

    private void release(long h) {
        if (hold.compareAndSet(h, 0)) {
            for (Key key = held.poll(); key != null; key = held.poll()) {
                takeTurn(key);
            }
        }
    }

    private boolean heldLongEnough(Key key) {
        return untilHeldLongEnough(key) == 0;
    }

    private long untilHeldLongEnough(Key key) {
        Pending p = pending.get(key);
        return p == null ? 0 : Math.max(0, p.first().toEpochMilli() + MAX_HOLD_MILLIS - clock.millis());
    }

    private void takeTurn(Key key) {
        long wait = rate.take();
        if (wait > 0) {
            schedule(() -> write(key), TimeUnit.NANOSECONDS.toMillis(wait));
        } else {
            write(key);
        }
    }

    private void schedule(Runnable task, long millis) {
        try {
            writer.schedule(task, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            task.run();
        }
    }

    private void write(Key key) {
        Pending p = pending.remove(key);
        if (p == null) {
            return;
        }
        lastWritten.put(key, clock.millis());
        if (lastWritten.size() > maxPending) {
            lastWritten.clear();
        }
        String message = key.name() != null ? p.message()
                : "(combined from similar events): " + p.count() + " " + key.kind() + "s in " + key.namespace()
                        + ", the latest " + p.latest() + ": " + p.message();
        write(p, key.type(), key.reason(), message);
    }

    private void write(Pending p, String type, String reason, String message) {
        ObjectRef ref = p.about();
        ObjectReference about = new ObjectReferenceBuilder().withApiVersion(ref.apiVersion()).withKind(ref.kind())
                .withNamespace(ref.namespace()).withName(ref.name()).build();
        try {
            client.v1().events().inNamespace(about.getNamespace()).resource(new EventBuilder()
                    .withNewMetadata()
                    .withName(about.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
                    .withNamespace(about.getNamespace())
                    .endMetadata()
                    .withInvolvedObject(about)
                    .withType(type)
                    .withReason(reason)
                    .withMessage(message.length() > 1024 ? message.substring(0, 1021) + "..." : message)
                    .withFirstTimestamp(p.first().toString())
                    .withLastTimestamp(p.last().toString())
                    .withCount(p.count())
                    .withNewSource().withComponent(FieldManager.NAME).endSource()
                    .withReportingComponent(FieldManager.NAME)
                    .build()).create();
        } catch (KubernetesClientException e) {
            LOG.warnf("could not record Event %s on %s %s/%s: %s", reason, about.getKind(), about.getNamespace(),
                    about.getName(), e.getMessage());
        }
    }
}
