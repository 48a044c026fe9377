package dev.rekon.modules.manifest;

import dev.rekon.modules.manifest.ModuleManifest.Provenance;
import dev.rekon.modules.ocm.ComponentDescriptor.Digest;
import dev.rekon.modules.release.SignatureCheck;

/**
 * Decides how far a signature covers a manifest (pure). OCM signs the descriptor, whose resources record
 * digests but whose access specifications are not signed: a manifest is {@link Provenance#SIGNED} only when
 * the descriptor's signature verified and its {@code raw-manifest} digest is that of what was read (the blob for
 * a localBlob, the image manifest for an ociArtifact). With signatures required, anything less is refused:
 * before fetching when the descriptor already falls short, after fetching when the digests differ. Whatever the
 * policy, a recorded SHA-256 digest that what was read does not match refuses the manifest: that digest is the
 * blob's integrity, signed or not.
 */
final class ManifestTrust {

    /** Provenance, or why the manifest is refused. */
    record Verdict(Provenance provenance, String refusal) {

        static Verdict refused(String why) {
            return new Verdict(null, why);
        }
    }

    private ManifestTrust() {
    }

    /** @return the refusal, or null to go on and fetch */
    static String beforeFetch(ManifestOrigin origin, SignatureCheck check, boolean required) {
        if (!required) {
            return null;
        }
        if (origin instanceof ManifestOrigin.Link) {
            return "reads its manifest from spec.resources[" + ManifestOrigin.LINK_RESOURCE + "].link, which no"
                    + " signature covers, while rekon.modules.require-signature is on; publish the manifest as the"
                    + " raw-manifest resource of a signed OCM descriptor";
        }
        if (check == null || check.status() != SignatureCheck.Status.VERIFIED) {
            return check == null ? "has no OCM descriptor to verify"
                    : "is not signed as required (" + check.reason() + "): " + check.message();
        }
        Digest signed = signedDigest(origin);
        if (signed == null || !"SHA-256".equals(signed.hashAlgorithm()) || signed.value().isBlank()) {
            return "has a signed descriptor that records no SHA-256 digest for its raw-manifest resource, so the"
                    + " signature does not cover the manifest; record the digest (" + expected(origin)
                    + ") before signing";
        }
        return null;
    }

    /** @param readDigest hex SHA-256 of what the signed digest is over: the blob, or the artifact's manifest */
    static Verdict afterFetch(ManifestOrigin origin, SignatureCheck check, String readDigest, boolean required) {
        if (origin instanceof ManifestOrigin.Link) {
            return new Verdict(Provenance.LINK, null);
        }
        Digest signed = signedDigest(origin);
        boolean recorded = signed != null && "SHA-256".equals(signed.hashAlgorithm()) && !signed.value().isBlank();
        boolean covered = recorded && signed.value().equalsIgnoreCase(readDigest);
        if (covered && check != null && check.status() == SignatureCheck.Status.VERIFIED) {
            return new Verdict(Provenance.SIGNED, null);
        }
        if (recorded && !covered) {
            // The recorded digest is the blob's integrity whatever the signature policy, as OCM's verification has it.
            return Verdict.refused("has a " + (check != null && check.status() == SignatureCheck.Status.VERIFIED
                    ? "signed " : "") + "descriptor recording raw-manifest digest " + signed.value()
                    + " but what was read digests to " + readDigest + ": the manifest was changed after it was"
                    + " described, or the descriptor's access points elsewhere; publish the manifest the descriptor"
                    + " records, or record its digest (and sign the descriptor) again");
        }
        if (required) {
            return Verdict.refused("has a signed descriptor recording raw-manifest digest "
                    + (signed == null ? "(none)" : signed.value()) + " but what was read digests to " + readDigest
                    + ": the manifest was changed after signing, or the descriptor's access points elsewhere;"
                    + " publish the manifest that was signed, or sign the descriptor again");
        }
        return new Verdict(Provenance.UNSIGNED, null);
    }

    private static Digest signedDigest(ManifestOrigin origin) {
        if (origin instanceof ManifestOrigin.LocalBlob b) {
            return b.signed();
        }
        return origin instanceof ManifestOrigin.OciArtifact a ? a.signed() : null;
    }

    private static String expected(ManifestOrigin origin) {
        return origin instanceof ManifestOrigin.OciArtifact ? "SHA-256, ociArtifactDigest/v1"
                : "SHA-256, genericBlobDigest/v1";
    }
}
