package dev.rekon.promotions.view;

/**
 * One build as promotion moves it: its full reference with digest ({@code repository@sha256:...}) and the source
 * kpack Image's build number, which orders builds (a higher number is newer; the digest alone says nothing of age).
 */
public record Build(String image, Long buildCounter) {

    /** The digest part of the reference ({@code sha256:...}), or the whole text when it has none. */
    public String digest() {
        int at = image.indexOf('@');
        return at < 0 ? image : image.substring(at + 1);
    }

    /** Whether this build is the same as {@code other}, by digest (the repository may be written another way). */
    public boolean same(Build other) {
        return other != null && digest().equals(other.digest());
    }

    /** Whether {@code image} (a full reference or a bare digest) names this build. */
    public boolean namedBy(String reference) {
        if (reference == null) {
            return false;
        }
        int at = reference.indexOf('@');
        return digest().equals(at < 0 ? reference : reference.substring(at + 1));
    }

    /** Whether this build is older than {@code other}: a lower build number (unknown numbers are never older). */
    public boolean olderThan(Build other) {
        return other != null && buildCounter != null && other.buildCounter != null
                && buildCounter < other.buildCounter;
    }
}
