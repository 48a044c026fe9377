package dev.rekon.buildpacks;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.rekon.buildpacks.apply.BuildpackGateway;
import dev.rekon.buildpacks.plan.RecheckView;
import dev.rekon.buildpacks.view.ImageHead;
import dev.rekon.core.ObjectRef;
import dev.rekon.core.Outcome;
import dev.rekon.core.RefusedException;
import dev.rekon.core.Reply;
import dev.rekon.core.TransientFailureException;
import dev.rekon.registry.DockerConfig;

/**
 * What one buildpacks resync pass shares between its keys: one manifest HEAD per image and ServiceAccount (objects
 * naming the same image with the same pull secrets share it, and a key's write attempt sees the HEAD its plan
 * saw), each ServiceAccount's pull secrets read once; and what the refreshes of the pass wrote, for the Builders'
 * part to count. Its keys run on the loop's threads in parallel: a HEAD is read by the first key that needs it
 * while the others naming it wait for its answer.
 */
final class RecheckPass {

    /** One HEAD's answer: the head, or the failure that stopped it. */
    private record Head(ImageHead head, RuntimeException failure) {
    }

    private final BuildpackGateway gateway;
    private final Map<String, Head> heads = new ConcurrentHashMap<>();
    private final Map<String, Optional<DockerConfig>> secrets = new ConcurrentHashMap<>();
    private final Set<ObjectRef> headFailed = ConcurrentHashMap.newKeySet();
    private final Map<ObjectRef, List<Reply>> refreshed = new ConcurrentHashMap<>();

    RecheckPass(BuildpackGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * The HEAD of the object's image; null when none is made (no image, or a status not of the current generation:
     * refreshed without one). A failure the gateway sorted is thrown, to every object that shares the HEAD: a
     * transient one is counted as the HEAD's, a refusal is the loop's answer.
     */
    ImageHead head(RecheckView b) {
        if (b.image() == null || !b.current()) {
            return null;
        }
        Head head = heads.computeIfAbsent(b.image() + " " + serviceAccount(b), k -> read(b));
        if (head.failure() != null) {
            headFailed.add(b.ref());
            throw head.failure();
        }
        return head.head();
    }

    /** Whether the object's part of the pass failed at its HEAD (not at its refresh). */
    boolean headFailed(ObjectRef ref) {
        return headFailed.contains(ref);
    }

    /** Records the replies of a refresh that ran: the Buildpack's own first, then its Builders'. */
    void refreshed(ObjectRef ref, List<Reply> parts) {
        refreshed.put(ref, List.copyOf(parts));
    }

    /** The replies of the object's refresh in this pass, or none. */
    List<Reply> parts(ObjectRef ref) {
        return refreshed.getOrDefault(ref, List.of());
    }

    /** The objects the refreshes of this pass wrote. */
    Set<ObjectRef> written() {
        Set<ObjectRef> written = new HashSet<>();
        refreshed.values().forEach(parts -> parts.stream().filter(p -> p.outcome() == Outcome.APPLIED)
                .forEach(p -> written.addAll(p.objects())));
        return written;
    }

    private Head read(RecheckView b) {
        try {
            Optional<DockerConfig> creds = secrets.computeIfAbsent(serviceAccount(b),
                    k -> gateway.pullSecrets(b.serviceAccountNamespace(), b.serviceAccountName()));
            return new Head(gateway.headDigest(b.image(), creds, b.serviceAccountNamespace(), b.serviceAccountName()),
                    null);
        } catch (TransientFailureException | RefusedException e) {
            // A recheck goes on with the next image: this one's failure is its row in the pass.
            return new Head(null, e);
        }
    }

    private static String serviceAccount(RecheckView b) {
        return b.serviceAccountNamespace() + "/" + b.serviceAccountName();
    }
}
