package dev.rekon.manifests.inventory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import dev.rekon.core.ObjectRef;
import dev.rekon.manifests.Identity;

/**
 * What an owner of manifest objects (a module of a Kyma, a DeclaredState) has in the cluster: every object Rekon
 * applied for it, or is about to (entries are recorded before the objects are created, so a process killed
 * mid-apply never leaves an object that a later prune or uninstall would miss). Where it is kept is the area's
 * choice ({@link InventoryCodec} has both forms): a module's ConfigMap, with the release it runs ({@code version},
 * {@code channel}, {@code template}) and the resourceVersion its own write is guarded by; a DeclaredState's
 * status, which keeps its revision itself (those fields null there).
 *
 * @param version the version fully applied, or null while the first install has not finished
 */
public record Inventory(String owner, String version, String channel, String template, List<Entry> objects,
        String resourceVersion) {

    /** One object: {@code created} when the owner created it (a Namespace that existed before is not deleted). */
    public record Entry(ObjectRef ref, boolean created, boolean defaultCr) {

        /** An object as a DeclaredState records it: its Namespaces are told apart by their owner label instead. */
        public static Entry of(ObjectRef ref) {
            return new Entry(ref, false, false);
        }
    }

    public Inventory {
        objects = List.copyOf(objects);
    }

    public static Inventory empty(String owner) {
        return new Inventory(owner, null, null, null, List.of(), null);
    }

    /** The objects alone, as a DeclaredState's status records them. */
    public static Inventory of(List<ObjectRef> refs) {
        return new Inventory(null, null, null, null, refs.stream().map(Entry::of).toList(), null);
    }

    public Optional<Entry> entry(ObjectRef ref) {
        return objects.stream().filter(e -> Identity.same(e.ref(), ref)).findFirst();
    }

    public List<ObjectRef> refs() {
        return objects.stream().map(Entry::ref).toList();
    }

    /** This inventory with {@code more} recorded too (the write-ahead of an apply), the version unchanged. */
    public Inventory with(List<Entry> more) {
        Map<String, Entry> all = new LinkedHashMap<>();
        objects.forEach(e -> all.put(Identity.key(e.ref()), e));
        more.forEach(e -> all.putIfAbsent(Identity.key(e.ref()), e));
        return new Inventory(owner, version, channel, template, new ArrayList<>(all.values()), resourceVersion);
    }

    public Inventory withResourceVersion(String version) {
        return new Inventory(owner, this.version, channel, template, objects, version);
    }

    /** Whether the two record the same objects and version (the resourceVersion aside): no write needed. */
    public boolean sameAs(Inventory other) {
        return other != null && Objects.equals(version, other.version) && Objects.equals(channel, other.channel)
                && Objects.equals(template, other.template) && objects.equals(other.objects);
    }
}
