package dev.rekon.buildpacks.view;

/**
 * One entry of a Builder's {@code spec.order[].group[]} as the user wrote it: by {@code id} (and maybe
 * {@code version}), by {@code kind} + {@code name} (and maybe {@code id}), or by {@code image}.
 */
public record BuilderSpecRef(String id, String version, boolean optional, String kind, String name, String image) {

    public static BuilderSpecRef byId(String id, String version) {
        return new BuilderSpecRef(id, version, false, null, null, null);
    }

    public static BuilderSpecRef byResource(String kind, String name, String id) {
        return new BuilderSpecRef(id, null, false, kind, name, null);
    }

    public static BuilderSpecRef byImage(String image) {
        return new BuilderSpecRef(null, null, false, null, null, image);
    }

    public BuilderSpecRef withVersion(String v) {
        return new BuilderSpecRef(id, v, optional, kind, name, image);
    }

    public BuilderSpecRef asOptional() {
        return new BuilderSpecRef(id, version, true, kind, name, image);
    }

    public boolean hasId() {
        return id != null && !id.isBlank();
    }

    public boolean hasVersion() {
        return version != null && !version.isBlank();
    }

    public boolean hasKindOrName() {
        return (kind != null && !kind.isBlank()) || (name != null && !name.isBlank());
    }

    public boolean hasImage() {
        return image != null && !image.isBlank();
    }
}
