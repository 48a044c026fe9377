package dev.rekon.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * This process's own writes that a watch has not delivered yet. Every write Rekon makes is guarded by the
 * resourceVersion it replaced, so while the watch still shows exactly that version, the written object is the
 * current one: the next event plans from it instead of from the old object (which would cost a 409 and fresh
 * reads). As soon as the watch shows any other version, the watch is trusted again.
 */
public final class OwnWrites<T extends HasMetadata> {

    private static final int MAX = 10_000;

    private record Write<T>(String replacedVersion, T written) {
    }

    private final Map<String, Write<T>> writes = new ConcurrentHashMap<>();

    /** Records that {@code written}, stored under {@code key}, replaced the object at {@code replacedVersion}. */
    public void wrote(String key, String replacedVersion, T written) {
        if (written == null || replacedVersion == null) {
            return;
        }
        if (writes.size() > MAX) {
            writes.clear();
        }
        writes.put(key, new Write<>(replacedVersion, written));
    }

    /** The newer of the cached object and this process's own write of it. */
    public T latest(String key, T cached) {
        Write<T> own = writes.get(key);
        if (own == null) {
            return cached;
        }
        if (own.replacedVersion().equals(cached.getMetadata().getResourceVersion())) {
            return own.written();
        }
        writes.remove(key, own);
        return cached;
    }
}
