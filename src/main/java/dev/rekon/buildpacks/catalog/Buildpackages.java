package dev.rekon.buildpacks.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.rekon.buildpacks.view.ImageRead;
import dev.rekon.registry.RegistryImage;

/**
 * The buildpackages this process read, so that the status page plans a Buildpack or Builder without a registry
 * request: what each image, read with a ServiceAccount's pull secrets, gave last, and each manifest by its digest.
 * A manifest never changes under its digest, so what was read of it stays true; which digest a tag points at is
 * only what the last read found, and the next event or resync reads it again. Filled by the loads of real
 * reconciles (events, pushes, resyncs); bounded, the least recently used first to go, after which a page row says
 * its buildpackage was not read.
 */
@ApplicationScoped
public class Buildpackages {

    /** Manifests kept: a buildpackage's labels and layers, a few KiB each. */
    static final int DIGESTS = 256;
    /** Images kept by name: each is a digest or a reason. */
    static final int NAMES = 4096;

    private record Named(String image, String saNamespace, String saName) {
    }

    /** What the last read of a name gave: the digest it pointed at, or why it could not be read. */
    private record Last(String digest, ImageRead.Unreadable unreadable) {
    }

    private final Map<String, RegistryImage> byDigest = lru(DIGESTS);
    private final Map<Named, Last> byName = lru(NAMES);

    /** Keeps what a read of {@code image} gave, and returns it. */
    public synchronized ImageRead read(String image, String saNamespace, String saName, ImageRead read) {
        Named named = new Named(image, saNamespace, saName);
        if (read instanceof ImageRead.Found f) {
            byDigest.put(f.image().digest(), f.image());
            byName.put(named, new Last(f.image().digest(), null));
        } else if (read instanceof ImageRead.Unreadable u) {
            byName.put(named, new Last(null, u));
        }
        return read;
    }

    /** What the last read of {@code image} gave, or empty when this process holds none (never read, or let go). */
    public synchronized Optional<ImageRead> held(String image, String saNamespace, String saName) {
        Last last = byName.get(new Named(image, saNamespace, saName));
        if (last == null) {
            return Optional.empty();
        }
        if (last.unreadable() != null) {
            return Optional.of(last.unreadable());
        }
        return Optional.ofNullable(byDigest.get(last.digest())).map(ImageRead.Found::new);
    }

    private static <K, V> Map<K, V> lru(int max) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                return size() > max;
            }
        };
    }
}
