// Views: every movement op against hand-written element maps (-1 = padding).
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "kernel/kernel.hpp"

using namespace zyx;
using namespace zyx::kernel;

namespace {
// Element offsets of every index in row-major order; -1 where the view reads padding.
std::vector<int64_t> elements(const View& v) {
    std::vector<int64_t> out;
    std::vector<int64_t> idx(v.rank(), 0);
    if (v.numel() == 0) return out;
    while (true) {
        int64_t off;
        out.push_back(v.element(idx.data(), &off) ? off : -1);
        size_t d = v.rank();
        while (d > 0) {
            if (++idx[d - 1] < v.shape()[d - 1]) break;
            idx[--d] = 0;
        }
        if (d == 0) break;
    }
    return out;
}
using E = std::vector<int64_t>;
}  // namespace

TEST(View, Contiguous) {
    View v = View::contiguous({2, 3});
    EXPECT_TRUE(v.is_contiguous());
    EXPECT_EQ(elements(v), (E{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(v.numel(), 6);
}

TEST(View, PermuteExpandShrinkFlipStride) {
    View v = View::contiguous({2, 3});
    EXPECT_EQ(elements(v.permute({1, 0})), (E{0, 3, 1, 4, 2, 5}));
    EXPECT_FALSE(v.permute({1, 0}).is_contiguous());
    EXPECT_EQ(elements(View::contiguous({1, 3}).expand({2, 3})), (E{0, 1, 2, 0, 1, 2}));
    EXPECT_EQ(elements(v.shrink({0, 1}, {2, 3})), (E{1, 2, 4, 5}));
    EXPECT_EQ(elements(v.flip({1})), (E{2, 1, 0, 5, 4, 3}));
    EXPECT_EQ(elements(v.flip({0, 1})), (E{5, 4, 3, 2, 1, 0}));
    EXPECT_EQ(elements(View::contiguous({5}).stride({2})), (E{0, 2, 4}));
    EXPECT_EQ(elements(View::contiguous({6}).flip({0}).stride({4})), (E{5, 1}));
}

TEST(View, PadAndMaskedOps) {
    View p = View::contiguous({3}).pad({1}, {2});
    EXPECT_EQ(elements(p), (E{-1, 0, 1, 2, -1, -1}));
    EXPECT_EQ(elements(p.flip({0})), (E{-1, -1, 2, 1, 0, -1}));
    EXPECT_EQ(elements(View::contiguous({3}).pad({1}, {1}).stride({2})), (E{-1, 1, -1}));
    EXPECT_EQ(elements(p.shrink({2}, {5})), (E{1, 2, -1}));
    EXPECT_EQ(elements(p.shrink({1}, {4})), (E{0, 1, 2}));
    EXPECT_FALSE(p.shrink({1}, {4}).layers[0].has_mask()) << "a mask covering everything is dropped";
    // Unit axes come and go without a new layer, keeping the mask.
    View u = p.reshape({1, 6, 1});
    EXPECT_EQ(u.layers.size(), 1u);
    EXPECT_EQ(elements(u), elements(p));
    EXPECT_EQ(elements(View::contiguous({1, 2}).pad({0, 1}, {1, 0})), (E{-1, 0, 1, -1, -1, -1}));
    // Expanding a padded unit axis keeps its validity.
    EXPECT_EQ(elements(View::contiguous({1}).pad({1}, {0}).reshape({2, 1}).expand({2, 2})), (E{-1, -1, 0, 0}));
}

TEST(View, ReshapeInPlaceWhenStridesAllow) {
    View v = View::contiguous({2, 3, 4});
    View r = v.reshape({6, 4});
    EXPECT_EQ(r.layers.size(), 1u);
    EXPECT_EQ(r.layers[0].strides, (E{4, 1}));
    View s = v.permute({2, 0, 1}).reshape({4, 6});  // merging (2,3) keeps them adjacent: free
    EXPECT_EQ(s.layers.size(), 1u);
    EXPECT_EQ(elements(s), elements(v.permute({2, 0, 1})));
    View b = View::contiguous({1, 3}).expand({4, 3}).reshape({2, 2, 3});  // split a broadcast axis
    EXPECT_EQ(b.layers.size(), 1u);
    EXPECT_EQ(elements(b), (E{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

TEST(View, ReshapePushesALayerWhenStridesCannot) {
    View t = View::contiguous({2, 3}).permute({1, 0}).reshape({6});
    EXPECT_EQ(t.layers.size(), 2u);
    EXPECT_EQ(elements(t), (E{0, 3, 1, 4, 2, 5}));
    View p = View::contiguous({3}).pad({1}, {2}).reshape({2, 3});
    EXPECT_EQ(p.layers.size(), 2u);
    EXPECT_EQ(elements(p), (E{-1, 0, 1, 2, -1, -1}));
    // Further movement ops edit the top layer only.
    EXPECT_EQ(elements(p.permute({1, 0})), (E{-1, 2, 0, -1, 1, -1}));
    EXPECT_EQ(elements(t.reshape({3, 2}).flip({1})), (E{3, 0, 4, 1, 5, 2}));
    View e = View::contiguous({1, 3}).expand({2, 3}).reshape({6});
    EXPECT_EQ(elements(e), (E{0, 1, 2, 0, 1, 2}));
}

TEST(View, EmptyAndErrors) {
    View z = View::contiguous({0, 3});
    EXPECT_EQ(z.reshape({3, 0}).shape(), (E{3, 0}));
    int64_t lo, hi;
    EXPECT_FALSE(z.offset_range(&lo, &hi));
    View v = View::contiguous({2, 3});
    try {
        (void)v.expand({4, 3});
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
        EXPECT_NE(e.message().find("[4,3]"), std::string::npos) << e.message();
        EXPECT_NE(e.message().find("[2,3]"), std::string::npos) << e.message();
    }
    EXPECT_THROW((void)v.reshape({5}), Error);
    EXPECT_THROW((void)v.permute({0, 0}), Error);
    EXPECT_THROW((void)v.shrink({0, 2}, {2, 4}), Error);
    EXPECT_THROW((void)v.pad({-1, 0}, {0, 0}), Error);
    EXPECT_THROW((void)v.stride({0, 1}), Error);
    EXPECT_THROW((void)v.flip({2}), Error);
}

TEST(View, OffsetRange) {
    int64_t lo, hi;
    ASSERT_TRUE(View::contiguous({2, 3}).flip({0}).offset_range(&lo, &hi));
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 5);
    ASSERT_TRUE(View::contiguous({4}).shrink({1}, {3}).offset_range(&lo, &hi));
    EXPECT_EQ(lo, 1);
    EXPECT_EQ(hi, 2);
    ASSERT_TRUE(View::contiguous({3}).pad({2}, {2}).offset_range(&lo, &hi));
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 2);
}
