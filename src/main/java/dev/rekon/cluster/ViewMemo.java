package dev.rekon.cluster;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * Views of watched objects, made once per resourceVersion: while an object is unchanged, every event reuses
 * the view the first one made instead of converting the object again. Views must be immutable (the planners
 * copy before they change anything).
 */
public final class ViewMemo<V> {

    private static final int MAX = 20_000;

    private record Entry<V>(String resourceVersion, V view) {
    }

    private final Map<String, Entry<V>> entries = new ConcurrentHashMap<>();

    /** The view of {@code object}, stored under {@code key}: made by {@code make} unless made at this version. */
    public <T extends HasMetadata> V of(String key, T object, Function<T, V> make) {
        String version = object.getMetadata().getResourceVersion();
        Entry<V> e = entries.get(key);
        if (e != null && version != null && version.equals(e.resourceVersion())) {
            return e.view();
        }
        V view = make.apply(object);
        if (entries.size() >= MAX) {
            entries.clear();
        }
        entries.put(key, new Entry<>(version, view));
        return view;
    }
}
