package dev.rekon.cluster;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

/**
 * Decides where the body of one response goes: to the caller's consumer as it arrives (a successful response), or,
 * for an error (a 429, a 5xx, any refusal), read whole first and handed over afterwards from memory
 * ({@link #readWhole}). The client cancels an error's body before it sends the request again, and on the Vert.x
 * client a cancel resets the HTTP/1.1 request: when that response has already ended, its connection has gone back to
 * the pool, and the reset closes it under whichever request took it next ({@code HttpClosedException: Connection was
 * closed}, which the client does not send again). A body already read has nothing left to reset. Error bodies are
 * the apiserver's small Status objects.
 */
final class ErrorBody implements AsyncBody.Consumer<List<ByteBuffer>> {

    private final AsyncBody.Consumer<List<ByteBuffer>> caller;
    private volatile List<ByteBuffer> kept;

    ErrorBody(AsyncBody.Consumer<List<ByteBuffer>> caller) {
        this.caller = caller;
    }

    @Override
    public void consume(List<ByteBuffer> value, AsyncBody body) throws Exception {
        List<ByteBuffer> keep = kept;
        if (keep == null) {
            caller.consume(value, body);
            return;
        }
        keep.addAll(value);
        body.consume();
    }

    @Override
    public <U> U unwrap(Class<U> target) {
        return caller.unwrap(target);
    }

    /** Reads {@code response}'s body to its end, then answers the same response with that body held in memory. */
    CompletableFuture<HttpResponse<AsyncBody>> readWhole(HttpResponse<AsyncBody> response) {
        kept = new ArrayList<>();
        response.body().consume();
        return response.body().done().handle((end, failed) -> new Read(response, new Replay(caller, kept, failed)));
    }

    /** The body read whole: the first {@link #consume} hands it all over, the next ends it; a cancel resets nothing. */
    private static final class Replay implements AsyncBody {
        private final AsyncBody.Consumer<List<ByteBuffer>> consumer;
        private final List<ByteBuffer> bytes;
        private final Throwable failed;
        private final AtomicBoolean handedOver = new AtomicBoolean();
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Replay(AsyncBody.Consumer<List<ByteBuffer>> consumer, List<ByteBuffer> bytes, Throwable failed) {
            this.consumer = consumer;
            this.bytes = bytes;
            this.failed = failed;
        }

        @Override
        public void consume() {
            if (done.isDone()) {
                return;
            }
            if (!bytes.isEmpty() && handedOver.compareAndSet(false, true)) {
                try {
                    consumer.consume(bytes, this);
                } catch (Exception e) {
                    done.completeExceptionally(e);
                }
            } else if (failed != null) {
                done.completeExceptionally(failed);
            } else {
                done.complete(null);
            }
        }

        @Override
        public CompletableFuture<Void> done() {
            return done;
        }

        @Override
        public void cancel() {
            done.cancel(false);
        }
    }

    private record Read(HttpResponse<AsyncBody> head, AsyncBody body) implements HttpResponse<AsyncBody> {
        @Override
        public int code() {
            return head.code();
        }

        @Override
        public HttpRequest request() {
            return head.request();
        }

        @Override
        public Optional<HttpResponse<?>> previousResponse() {
            return head.previousResponse();
        }

        @Override
        public List<String> headers(String name) {
            return head.headers(name);
        }

        @Override
        public Map<String, List<String>> headers() {
            return head.headers();
        }
    }
}
