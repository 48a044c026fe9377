package dev.rekon.promotions.view;

import dev.rekon.core.ObjectRef;

/**
 * The names promotions are known by on the cluster and on the wire: the two kinds of Rekon's own, their API
 * version, and the CloudEvent types of this area. Views, plans, writes and functions all name them from here.
 */
public final class PromotionNames {

    public static final String GROUP = "rekon.dev";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String PROMOTION_KIND = "ImagePromotion";
    public static final String PROMOTION_PLURAL = "imagepromotions";
    public static final String PROMOTED_KIND = "PromotedImage";
    public static final String PROMOTED_PLURAL = "promotedimages";

    /** A person's approval of the build that waits at a Manual stage. */
    public static final String APPROVE_EVENT = "dev.rekon.promotion.approve";
    /** The reply of every promotion function. */
    public static final String RESULT_EVENT = "dev.rekon.promotion.result";

    /** {@code app.kubernetes.io/managed-by=rekon} on every PromotedImage Rekon creates. */
    public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
    /** The ImagePromotion ({@code namespace.name}) a PromotedImage was created for. */
    public static final String PROMOTION_LABEL = "rekon.dev/imagepromotion";

    private PromotionNames() {
    }

    public static ObjectRef promotion(String namespace, String name) {
        return new ObjectRef(API_VERSION, PROMOTION_KIND, namespace, name);
    }

    public static ObjectRef promoted(String namespace, String name) {
        return new ObjectRef(API_VERSION, PROMOTED_KIND, namespace, name);
    }
}
