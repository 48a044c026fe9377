package dev.rekon.declared.plan;

import java.util.Set;
import java.util.regex.Pattern;

import dev.rekon.declared.intent.DeclaredStateView;
import dev.rekon.manifests.Identity;

/**
 * Which objects in a DeclaredState's namespaces that git does not declare are orphans: rekkoner's "total control".
 * Never orphans: what another object owns (an ownerReference), what the cluster's own controllers make without
 * one (a Service's Endpoints, a StatefulSet's claims, token Secrets, the {@code default} ServiceAccount,
 * {@code kube-root-ca.crt}, Events, Leases), what Rekon manages for anyone (inventories, another DeclaredState's,
 * a module's, an ImageDeploy's objects), the DeclaredStates there and the Secrets and ServiceAccounts they name,
 * what is being deleted, and what {@code orphanedResources.ignore} matches.
 */
public final class OrphanRules {

    private static final Set<String> CONTROLLER_KINDS = Set.of("/Event", "events.k8s.io/Event",
            "coordination.k8s.io/Lease", "discovery.k8s.io/EndpointSlice");
    private static final Pattern ORDINAL = Pattern.compile(".*-[0-9]+$");

    private OrphanRules() {
    }

    /** Kinds whose objects the cluster's own controllers make: never orphans, so never listed for them. */
    public static boolean neverOrphans(String apiVersion, String kind) {
        return CONTROLLER_KINDS.contains(Identity.group(apiVersion) + "/" + kind);
    }

    public static boolean orphan(Scanned o, DeclaredViews v) {
        String kind = o.ref().kind();
        String group = Identity.group(o.ref().apiVersion());
        if (o.owned() || o.deleting() || CONTROLLER_KINDS.contains(group + "/" + kind) || o.rekonManaged()) {
            return false;
        }
        if (v.protectedRefs().contains(Identity.key(o.ref())) || controllerMade(o, v)) {
            return false;
        }
        return v.state().ignore().stream().noneMatch(i -> matches(i, group, kind, o.ref().name()));
    }

    private static boolean controllerMade(Scanned o, DeclaredViews v) {
        String name = o.ref().name();
        return switch (o.ref().kind()) {
            case "ServiceAccount" -> "default".equals(name);
            case "ConfigMap" -> "kube-root-ca.crt".equals(name);
            // A scan reads metadata only: a token Secret is known by the annotation its controller sets.
            case "Secret" -> o.tokenSecret();
            case "Endpoints" -> sibling(v, o, "Service", name);
            case "PersistentVolumeClaim" -> ORDINAL.matcher(name).matches() && v.scanned().stream()
                    .anyMatch(s -> "StatefulSet".equals(s.ref().kind()) && s.ref().namespace().equals(o.ref().namespace())
                            && name.matches(".+-" + Pattern.quote(s.ref().name()) + "-[0-9]+"));
            default -> false;
        };
    }

    private static boolean sibling(DeclaredViews v, Scanned o, String kind, String name) {
        return v.scanned().stream().anyMatch(s -> kind.equals(s.ref().kind()) && name.equals(s.ref().name())
                && o.ref().namespace().equals(s.ref().namespace()));
    }

    static boolean matches(DeclaredStateView.Ignore i, String group, String kind, String name) {
        return (i.group() == null || i.group().equals(group)) && i.kind().equals(kind)
                && (i.name() == null || i.name().isEmpty() || glob(i.name()).matcher(name).matches());
    }

    private static Pattern glob(String glob) {
        StringBuilder re = new StringBuilder();
        for (char c : glob.toCharArray()) {
            re.append(c == '*' ? ".*" : c == '?' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(re.toString());
    }
}
