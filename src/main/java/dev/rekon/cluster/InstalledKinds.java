package dev.rekon.cluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * Which of the optional kinds Rekon reads the cluster serves (kpack's Image and RFC 0009 kinds, Kyma's module
 * kinds, kpush's ImageDeploy), from API discovery: asked once per API group version, remembered, and asked again
 * while a kind is missing (every {@value #RECHECK_MISSING_MILLIS} ms), so a CRD installed later is picked up. A
 * missing kind makes its area "not installed" (skipped, logged once per change, shown in {@code /q/health/ready}),
 * never an error per event. Only a group version's first question waits for discovery: a later one is answered
 * from what was discovered, and when that is due to be asked again it is, in the background (one at a time per
 * group version), so an event never waits for discovery's round trip (in a stage cluster without kpack, every
 * 10 s). When discovery itself fails the kind counts as installed: the area then reports the
 * apiserver's own error, as before.
 */
@ApplicationScoped
public class InstalledKinds {

    /** The reply reason of an event whose kind's CRD is not installed. */
    public static final String REASON = "KindNotInstalled";

    private static final Logger LOG = Logger.getLogger(InstalledKinds.class);
    static final long RECHECK_MISSING_MILLIS = 10_000;
    static final long RECHECK_PRESENT_MILLIS = 300_000;

    /** A kind as its CRD names it. */
    public record Kind(String group, String version, String plural, String kind) {
        /** The CRD's name, {@code <plural>.<group>}, as a user installs it. */
        public String crd() {
            return plural + "." + group;
        }
    }

    public static final Kind BUILDPACK = new Kind("kpack.io", "v1alpha2", "buildpacks", "Buildpack");
    public static final Kind CLUSTER_BUILDPACK = new Kind("kpack.io", "v1alpha2", "clusterbuildpacks", "ClusterBuildpack");
    public static final Kind BUILDER = new Kind("kpack.io", "v1alpha2", "builders", "Builder");
    public static final Kind CLUSTER_BUILDER = new Kind("kpack.io", "v1alpha2", "clusterbuilders", "ClusterBuilder");
    public static final Kind MODULE_TEMPLATE = new Kind("operator.kyma-project.io", "v1beta2", "moduletemplates", "ModuleTemplate");
    public static final Kind MODULE_RELEASE_META = new Kind("operator.kyma-project.io", "v1beta2", "modulereleasemetas",
            "ModuleReleaseMeta");
    public static final Kind KYMA = new Kind("operator.kyma-project.io", "v1beta2", "kymas", "Kyma");
    public static final Kind IMAGE_DEPLOY = new Kind("rekon.dev", "v1alpha1", "imagedeploys", "ImageDeploy");
    public static final Kind DECLARED_STATE = new Kind("rekon.dev", "v1alpha1", "declaredstates", "DeclaredState");
    public static final Kind PROMOTED_IMAGE = new Kind("rekon.dev", "v1alpha1", "promotedimages", "PromotedImage");
    public static final Kind IMAGE_PROMOTION = new Kind("rekon.dev", "v1alpha1", "imagepromotions", "ImagePromotion");
    public static final Kind KPUSH_IMAGE_DEPLOY = new Kind("crd.whizzosoftware.com", "v1alpha1", "imagedeploys", "ImageDeploy");

    /** The kinds of kpack's RFC 0009 buildpack publication. */
    public static final List<Kind> BUILDPACK_KINDS = List.of(BUILDPACK, CLUSTER_BUILDPACK, BUILDER, CLUSTER_BUILDER);
    /** Kyma's module kinds. */
    public static final List<Kind> KYMA_KINDS = List.of(MODULE_TEMPLATE, MODULE_RELEASE_META);

    private record Discovered(Set<String> plurals, long at) {
    }

    @Inject
    KubernetesClient client;

    @ConfigProperty(name = "rekon.rollouts.image-crd.group", defaultValue = "kpack.io")
    String imageGroup;

    @ConfigProperty(name = "rekon.rollouts.image-crd.version", defaultValue = "v1alpha2")
    String imageVersion;

    @ConfigProperty(name = "rekon.rollouts.image-crd.plural", defaultValue = "images")
    String imagePlural;

    private final Map<String, Discovered> discovered = new ConcurrentHashMap<>();
    private final Set<String> rechecking = ConcurrentHashMap.newKeySet();
    private final Map<Kind, Boolean> logged = new ConcurrentHashMap<>();
    LongSupplier clock = System::currentTimeMillis;
    /** A thread per recheck: at most one per group version every 10 s while a kind is missing, every 5 min after. */
    Executor rechecks = task -> {
        Thread t = new Thread(task, "rekon-discovery-recheck");
        t.setDaemon(true);
        t.start();
    };

    /** The kpack Image kind rollouts follow ({@code rekon.rollouts.image-crd.*}). */
    public Kind kpackImage() {
        return new Kind(imageGroup, imageVersion, imagePlural, "Image");
    }

    /** Every optional kind Rekon reads. */
    public List<Kind> all() {
        return List.of(kpackImage(), BUILDPACK, CLUSTER_BUILDPACK, BUILDER, CLUSTER_BUILDER, MODULE_TEMPLATE,
                MODULE_RELEASE_META, IMAGE_DEPLOY, KPUSH_IMAGE_DEPLOY);
    }

    public boolean installed(Kind kind) {
        Set<String> plurals = plurals(kind.group() + "/" + kind.version());
        boolean installed = plurals == null || plurals.contains(kind.plural());
        if (!Boolean.valueOf(installed).equals(logged.put(kind, installed))) {
            LOG.infof(installed ? "%s (%s) is installed" : "%s (%s) is not installed: what needs it is skipped until it is",
                    kind.kind(), kind.crd());
        }
        return installed;
    }

    public boolean allInstalled(List<Kind> kinds) {
        return kinds.stream().allMatch(this::installed);
    }

    /** Why events needing these kinds cannot be handled here, naming the missing CRDs; empty when all are installed. */
    public Optional<String> notInstalled(String what, List<Kind> kinds) {
        List<String> missing = kinds.stream().filter(k -> !installed(k)).map(Kind::crd).toList();
        return missing.isEmpty() ? Optional.empty() : Optional.of(what + " needs the CRD" + (missing.size() > 1 ? "s " : " ")
                + String.join(", ", missing) + ", not installed in this cluster; install " + (missing.size() > 1 ? "them" : "it")
                + " (Rekon notices within " + RECHECK_MISSING_MILLIS / 1000 + " s)");
    }

    /** Each optional kind's CRD with "installed" or "not installed", for the readiness check. */
    public Map<String, String> states() {
        return all().stream().collect(Collectors.toMap(Kind::crd, k -> installed(k) ? "installed" : "not installed",
                (a, b) -> a, LinkedHashMap::new));
    }

    /** The plurals a group version serves; null when discovery failed (then nothing is assumed missing). */
    private Set<String> plurals(String groupVersion) {
        Discovered d = discovered.get(groupVersion);
        if (d == null) {
            return discover(groupVersion, null);
        }
        long due = d.at() + (d.plurals().isEmpty() ? RECHECK_MISSING_MILLIS : RECHECK_PRESENT_MILLIS);
        if (clock.getAsLong() >= due && rechecking.add(groupVersion)) {
            rechecks.execute(() -> {
                try {
                    discover(groupVersion, d);
                } finally {
                    rechecking.remove(groupVersion);
                }
            });
        }
        return d.plurals();
    }

    private Set<String> discover(String groupVersion, Discovered before) {
        long now = clock.getAsLong();
        try {
            APIResourceList list = client.getApiResources(groupVersion);
            Set<String> plurals = list == null ? Set.of()
                    : list.getResources().stream().map(APIResource::getName).collect(Collectors.toUnmodifiableSet());
            discovered.put(groupVersion, new Discovered(plurals, now));
            return plurals;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                discovered.put(groupVersion, new Discovered(Set.of(), now));
                return Set.of();
            }
            return before == null ? null : before.plurals();
        }
    }
}
