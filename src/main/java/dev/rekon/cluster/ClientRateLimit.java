package dev.rekon.cluster;

import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;

/**
 * Decides when a request to the apiserver may start: a token bucket of {@code burst} requests refilled at
 * {@code qps} a second (client-go's QPS and burst), shared by every client Rekon makes, so that the work queue's
 * threads together never send more than the apiserver was sized for. A request waits on its own thread for its
 * token; one sent from an event-loop thread (an informer's reconnect) takes its token without waiting.
 */
public final class ClientRateLimit implements Interceptor {

    private final double qps;
    private final int burst;
    private double tokens;
    private long refilledNanos;
    private long heldBack;
    private long heldNanos;

    public ClientRateLimit(double qps, int burst) {
        if (qps <= 0 || burst < 1) {
            throw new IllegalArgumentException("qps must be above 0 and burst at least 1, not " + qps + "/" + burst);
        }
        this.qps = qps;
        this.burst = burst;
        this.tokens = burst;
        this.refilledNanos = System.nanoTime();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        long wait = take();
        if (wait > 0 && !io.vertx.core.Context.isOnEventLoopThread()) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Takes a token, the bucket going into debt when empty; answers how long the caller must wait for it. */
    long take() {
        return take(System.nanoTime());
    }

    synchronized long take(long now) {
        tokens = Math.min(burst, tokens + (now - refilledNanos) * qps / 1e9);
        refilledNanos = now;
        tokens -= 1;
        long wait = tokens >= 0 ? 0 : (long) (-tokens / qps * 1e9);
        if (wait > 0) {
            heldBack++;
            heldNanos += wait;
        }
        return wait;
    }

    /** Requests made to wait for a token so far (whether the limit ever binds, for the metrics). */
    public synchronized long heldBack() {
        return heldBack;
    }

    /** The time those requests were told to wait, in seconds. */
    public synchronized double heldSeconds() {
        return heldNanos / 1e9;
    }

    public double qps() {
        return qps;
    }

    public int burst() {
        return burst;
    }
}
