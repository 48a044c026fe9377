package dev.rekon.modules.lifecycle;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.rekon.modules.manifest.ModuleManifest;
import dev.rekon.modules.release.ModuleTemplateView;

/**
 * The manifests of the releases read lately, kept by the digest that names them, so that a pass over converged
 * modules reads no registry and the page plans with no read at all. Only a manifest named by its digest is kept
 * (a link or a tag may change); the key is also the template's namespace, whose pull Secrets the read used, and
 * what else of the template the manifest is made from (module, version, descriptor, default CR). Bounded: the
 * least recently used goes first. A refusal is kept for the page only: the next read may find the blob pushed
 * again, so loads read it again.
 */
final class HeldManifests {

    static final int CAPACITY = 512;

    /** What one read of a template's manifest is kept by. */
    record Key(String namespace, String digest, String module, String version, String descriptor, String data) {

        static Key of(ModuleTemplateView t, String digest) {
            return new Key(t.namespace(), digest, t.module(), t.version(), t.descriptor().toString(),
                    t.data() == null ? null : t.data().toString());
        }
    }

    /** A manifest read, or the refusal of the read (its message). */
    record Held(ModuleManifest manifest, String refusal) {
    }

    private final Map<Key, Held> held;

    HeldManifests(int capacity) {
        held = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Held> eldest) {
                return size() > capacity;
            }
        };
    }

    synchronized Optional<Held> get(Key key) {
        return Optional.ofNullable(held.get(key));
    }

    synchronized void put(Key key, ModuleManifest manifest) {
        held.put(key, new Held(manifest, null));
    }

    synchronized void refused(Key key, String message) {
        held.put(key, new Held(null, message));
    }
}
