package dev.rekon.modules.lifecycle.plan;

/** What a module entry resolved to: a release, or the reason none can be installed (said in the status). */
public sealed interface Resolution {

    /** The reason of a page's resolution whose manifest this replica has not read (the page reads none). */
    String NOT_READ = "ManifestNotReadYet";

    record Found(Release release) implements Resolution {
    }

    /** No release can be installed now, and why. */
    record Unavailable(String reason, String message) implements Resolution {
    }
}
