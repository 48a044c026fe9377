package dev.rekon.cluster;

/** The field manager every write of Rekon names, so that server-side apply and managedFields tell its fields apart. */
public final class FieldManager {

    public static final String NAME = "rekon";

    private FieldManager() {
    }
}
