package dev.rekon.modules;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.rekon.core.InvalidEventException;
import dev.rekon.core.SemVer;
import dev.rekon.modules.ocm.CanonicalJson;
import dev.rekon.modules.ocm.SignatureVerifier;
import dev.rekon.modules.plan.ModuleDeployment;
import dev.rekon.modules.release.ModuleRelease;
import dev.rekon.modules.release.SignatureCheck;

/**
 * The manual release event ({@value #TYPE}) a person sends with curl: module, version, channel (default
 * {@code regular}; Deployments on other channels switch to it), the image per container, an optional
 * {@code intendedDowngrade}, and a detached {@code signature} {algorithm, value (hex)} made over the RFC 8785
 * form of the event data without its {@code signature} field.
 */
public final class ManualRelease {

    public static final String TYPE = "dev.rekon.modules.release";

    private ManualRelease() {
    }

    public static ModuleRelease parse(JsonNode data, SignatureVerifier verifier) {
        if (data == null || !data.isObject()) {
            throw new InvalidEventException(TYPE + " needs JSON data {\"module\", \"version\", \"channel\", \"images\":"
                    + " {\"<container>\": \"<image>\"}, \"signature\": {\"algorithm\", \"value\"}}");
        }
        String module = required(data, "module");
        String version = required(data, "version");
        SemVer semver = SemVer.tryParse(version).orElseThrow(() -> new InvalidEventException(TYPE + " version '"
                + version + "' is not a semantic version (MAJOR.MINOR.PATCH)"));
        Map<String, String> images = new LinkedHashMap<>();
        data.path("images").fields().forEachRemaining(f -> images.put(f.getKey(), f.getValue().asText()));
        if (images.isEmpty() || images.values().stream().anyMatch(String::isBlank)) {
            throw new InvalidEventException(TYPE + " needs \"images\": a map from container name to image");
        }
        String channel = data.path("channel").asText("");
        return new ModuleRelease(module, semver, channel.isBlank() ? ModuleDeployment.DEFAULT_CHANNEL : channel, true,
                images, data.path("intendedDowngrade").asBoolean(false), signature(data, verifier),
                "manual event " + TYPE);
    }

    private static SignatureCheck signature(JsonNode data, SignatureVerifier verifier) {
        JsonNode sig = data.get("signature");
        if (sig == null || sig.isNull()) {
            return SignatureCheck.missing("the event has no signature");
        }
        byte[] signed = signedBytes(data);
        return verifier.verifyBytes(signed, sig.path("algorithm").asText(SignatureVerifier.PKCS1),
                sig.path("value").asText(""), "the event's detached signature");
    }

    /** What the detached signature is made over: the event data without {@code signature}, in RFC 8785 form. */
    public static byte[] signedBytes(JsonNode data) {
        ObjectNode unsigned = data.deepCopy();
        unsigned.remove("signature");
        return CanonicalJson.jcs(unsigned).getBytes(StandardCharsets.UTF_8);
    }

    private static String required(JsonNode data, String field) {
        String value = data.path(field).asText("");
        if (value.isBlank()) {
            throw new InvalidEventException(TYPE + " needs \"" + field + "\"");
        }
        return value;
    }
}
