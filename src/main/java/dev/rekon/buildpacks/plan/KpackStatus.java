package dev.rekon.buildpacks.plan;

import java.util.List;
import java.util.Set;

import dev.rekon.buildpacks.view.BuildpackEntry;
import dev.rekon.buildpacks.view.OrderEntry;
import dev.rekon.cluster.Conditions;

/**
 * The status fields Rekon decides on a kpack Buildpack, ClusterBuildpack, Builder or ClusterBuilder (kpack
 * v1alpha2 shape); a null field is one it does not decide. A Buildpack's status has {@code buildpacks}, a Builder's
 * {@code order} and {@code builderMetadata}.
 */
public record KpackStatus(Long observedGeneration, List<Conditions.Written> conditions,
        List<BuildpackEntry> buildpacks, List<OrderEntry> order, List<Resolution.Metadata> builderMetadata) {

    /** A status field, by the name the kpack object gives it. */
    public enum Field {
        OBSERVED_GENERATION("observedGeneration"), CONDITIONS("conditions"), BUILDPACKS("buildpacks"),
        ORDER("order"), BUILDER_METADATA("builderMetadata");

        private final String json;

        Field(String json) {
            this.json = json;
        }

        public String json() {
            return json;
        }

        /** This field of {@code status}, or null when it has none. */
        public Object of(KpackStatus status) {
            return switch (this) {
                case OBSERVED_GENERATION -> status.observedGeneration();
                case CONDITIONS -> status.conditions();
                case BUILDPACKS -> status.buildpacks();
                case ORDER -> status.order();
                case BUILDER_METADATA -> status.builderMetadata();
            };
        }
    }

    /** Only the {@code fields} of this status, the others null. */
    KpackStatus only(Set<Field> fields) {
        return new KpackStatus(fields.contains(Field.OBSERVED_GENERATION) ? observedGeneration : null,
                fields.contains(Field.CONDITIONS) ? conditions : null,
                fields.contains(Field.BUILDPACKS) ? buildpacks : null,
                fields.contains(Field.ORDER) ? order : null,
                fields.contains(Field.BUILDER_METADATA) ? builderMetadata : null);
    }

    /**
     * A JSON merge patch of a kpack object's status: the fields of {@code set} that are not null are written,
     * those in {@code dropped} removed, all others left as the object has them.
     */
    public record Patch(KpackStatus set, Set<Field> dropped) {
        public Patch {
            dropped = Set.copyOf(dropped);
        }

        /** A patch that writes {@code set}'s fields and drops none. */
        public static Patch of(KpackStatus set) {
            return new Patch(set, Set.of());
        }
    }
}
