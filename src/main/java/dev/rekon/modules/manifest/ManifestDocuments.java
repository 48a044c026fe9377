package dev.rekon.modules.manifest;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What other areas may read of manifest blobs, as the lifecycle reads them: the objects of a YAML stream or a tar
 * ({@link ManifestContent}), and the files of a tar. Pure; a blob that is not readable is an
 * {@link IllegalArgumentException} whose message says what is wrong.
 */
public final class ManifestDocuments {

    /** Largest manifest accepted, unpacked. */
    public static final long MAX_BYTES = ManifestContent.MAX_BYTES;

    private ManifestDocuments() {
    }

    /** The Kubernetes objects of a manifest blob; the message names the document at fault. */
    public static List<ObjectNode> objects(byte[] blob) {
        try {
            return ManifestContent.objects(blob);
        } catch (ManifestContent.Invalid e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    public static boolean isTar(byte[] blob) {
        return TarArchive.isTar(blob);
    }

    /** The regular files of a tar, by path. */
    public static Map<String, byte[]> tarFiles(byte[] tar) {
        try {
            return TarArchive.files(tar);
        } catch (IOException e) {
            throw new IllegalArgumentException("is not a readable tar archive: " + e.getMessage(), e);
        }
    }
}
