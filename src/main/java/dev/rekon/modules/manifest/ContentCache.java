package dev.rekon.modules.manifest;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Keeps the last few registry reads that are named by their digest (blobs, artifacts pinned to a manifest
 * digest): their content cannot change, so a resync of a converged module reads no blob again. Keys include
 * the ModuleTemplate's namespace, whose pull Secrets the read used: one namespace's credentials never serve
 * another's templates. Failures are not kept, nor values the caller deems too large.
 */
final class ContentCache {

    private final Map<String, Object> entries;

    ContentCache(int capacity) {
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Object> eldest) {
                return size() > capacity;
            }
        };
    }

    @SuppressWarnings("unchecked")
    /** The kept value, else what {@code read} gives, kept when {@code keep} says so. */
    <T> T get(String key, Predicate<T> keep, Supplier<T> read) {
        synchronized (entries) {
            Object hit = entries.get(key);
            if (hit != null) {
                return (T) hit;
            }
        }
        T value = read.get();
        if (keep.test(value)) {
            synchronized (entries) {
                entries.put(key, value);
            }
        }
        return value;
    }
}
