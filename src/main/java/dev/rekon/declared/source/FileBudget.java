package dev.rekon.declared.source;

import static dev.rekon.declared.source.RevisionRefusedException.KUSTOMIZE_UNSUPPORTED;
import static dev.rekon.declared.source.RevisionRefusedException.TOO_LARGE;
import static dev.rekon.declared.source.RevisionRefusedException.TOO_MANY_FILES;

import java.util.Locale;

/**
 * Decides, from a file's path and size alone, whether it is a manifest to read, one to refuse (a kustomization),
 * or one past the revision's file and byte limits; counts the files and bytes admitted so far.
 */
final class FileBudget {

    private final SourceLimits limits;
    private int files;
    private long bytes;

    FileBudget(SourceLimits limits) {
        this.limits = limits;
    }

    /**
     * Whether the file at {@code path} (relative to the repository root) of {@code size} bytes is to be read; called
     * before its content is loaded, so a file beyond the limits is refused unread.
     */
    boolean accept(String path, long size) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        if (hidden(path)) {
            return false;
        }
        if (name.equals("kustomization.yaml") || name.equals("kustomization.yml") || name.equals("Kustomization")) {
            throw new RevisionRefusedException(KUSTOMIZE_UNSUPPORTED, path, 0, "Rekon applies plain manifests and "
                    + "does not run kustomize build; commit the rendered output (kustomize build > all.yaml) "
                    + "instead of the kustomization", null);
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".yaml") && !lower.endsWith(".yml") && !lower.endsWith(".json")) {
            return false;
        }
        if (++files > limits.maxFiles()) {
            throw new RevisionRefusedException(TOO_MANY_FILES, path, 0, "the revision holds more than "
                    + limits.maxFiles() + " manifest files (rekon.declared.max-files); point spec.git.path at a "
                    + "smaller folder or split the repository", null);
        }
        if (size > limits.maxFileBytes()) {
            throw new RevisionRefusedException(TOO_LARGE, path, 0, "the file is " + size + " bytes, more than the "
                    + limits.maxFileBytes() + " allowed (rekon.declared.max-file-bytes); split it into smaller files",
                    null);
        }
        bytes += size;
        if (bytes > limits.maxTotalBytes()) {
            throw new RevisionRefusedException(TOO_LARGE, path, 0, "with this file the manifests pass "
                    + limits.maxTotalBytes() + " bytes in all (rekon.declared.max-total-bytes); point spec.git.path "
                    + "at a smaller folder", null);
        }
        return true;
    }

    /** Files and folders whose name starts with a dot (.github/, .gitlab-ci.yml) belong to tools, not to Rekon. */
    private static boolean hidden(String path) {
        return path.startsWith(".") || path.contains("/.");
    }
}
