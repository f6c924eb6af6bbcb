// The surface alias (harness/vmm/surface_alias.cpp) against a fake driver: what each route asks of the
// driver, that a refusal is NotSupported naming the call and its status (never a failure), that the
// exported descriptor goes to the driver only on a successful import, and that everything built is
// released once, the surface first and the allocation's range last.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/driver.hpp"
#include "common/error.hpp"
#include "vmm/surface_alias.hpp"

namespace vmmcheck::vmm {
namespace {

using patterns::SurfaceBacking;

struct FakeSurfaceDriver {
  CUresult import = CUDA_SUCCESS;
  CUresult mipmapped = CUDA_SUCCESS;
  int sparse_attribute = 1, deferred_attribute = 1;
  CUresult sparse_array = CUDA_ERROR_INVALID_VALUE;  // the H200's answers (proxy.surface in the stored runs)
  CUresult deferred_array = CUDA_SUCCESS;
  CUresult map_array = CUDA_ERROR_INVALID_VALUE;
  CUresult texture = CUDA_SUCCESS;
  std::vector<std::string> calls;
  int exported_fd = -1;
  int live = 0;  // objects made and not yet destroyed
};
FakeSurfaceDriver* f = nullptr;

CUresult made(const std::string& call) {
  f->calls.push_back(call);
  ++f->live;
  return CUDA_SUCCESS;
}
CUresult gone(const std::string& call) {
  f->calls.push_back(call);
  --f->live;
  return CUDA_SUCCESS;
}

CUresult device_get(CUdevice* d, int ordinal) {
  *d = ordinal;
  return CUDA_SUCCESS;
}
CUresult attribute(int* v, CUdevice_attribute a, CUdevice) {
  *v = a == CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED ? f->sparse_attribute
       : a == CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED ? f->deferred_attribute : 0;
  return CUDA_SUCCESS;
}
CUresult granularity(size_t* g, const CUmemAllocationProp*, CUmemAllocationGranularity_flags) {
  *g = 2u << 20;
  return CUDA_SUCCESS;
}
CUresult reserve(CUdeviceptr* p, size_t, size_t, CUdeviceptr, unsigned long long) {
  *p = 0x100000000ull;
  return made("reserve");
}
CUresult address_free(CUdeviceptr, size_t) { return gone("free"); }
CUresult create(CUmemGenericAllocationHandle* h, size_t, const CUmemAllocationProp* prop, unsigned long long) {
  *h = 7;
  return made(prop->requestedHandleTypes == CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ? "create posix_fd" : "create");
}
CUresult release(CUmemGenericAllocationHandle) { return gone("release"); }
CUresult map(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long) { return made("map"); }
CUresult unmap(CUdeviceptr, size_t) { return gone("unmap"); }
CUresult set_access(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) {
  f->calls.push_back("access");
  return CUDA_SUCCESS;
}
CUresult export_fd(void* out, CUmemGenericAllocationHandle, CUmemAllocationHandleType, unsigned long long) {
  f->exported_fd = ::open("/dev/null", O_RDONLY);
  *static_cast<int*>(out) = f->exported_fd;
  f->calls.push_back("export");
  return CUDA_SUCCESS;
}
CUresult import(CUexternalMemory* m, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* d) {
  EXPECT_EQ(d->type, CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD);
  EXPECT_EQ(d->handle.fd, f->exported_fd);
  if (f->import != CUDA_SUCCESS) {
    f->calls.push_back("import refused");
    return f->import;
  }
  *m = reinterpret_cast<CUexternalMemory>(0x10);
  return made("import");
}
CUresult destroy_external(CUexternalMemory) {
  ::close(f->exported_fd);  // the driver owned it
  return gone("destroy external");
}
CUresult mipmapped(CUmipmappedArray* a, CUexternalMemory, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC* d) {
  EXPECT_EQ(d->arrayDesc.Flags & CUDA_ARRAY3D_SURFACE_LDST, unsigned{CUDA_ARRAY3D_SURFACE_LDST});
  if (f->mipmapped != CUDA_SUCCESS) {
    f->calls.push_back("mipmapped refused");
    return f->mipmapped;
  }
  *a = reinterpret_cast<CUmipmappedArray>(0x20);
  return made("mipmapped");
}
CUresult level(CUarray* a, CUmipmappedArray, unsigned) {
  *a = reinterpret_cast<CUarray>(0x30);
  return CUDA_SUCCESS;
}
CUresult destroy_mipmapped(CUmipmappedArray) { return gone("destroy mipmapped"); }
CUresult array_create(CUarray* a, const CUDA_ARRAY3D_DESCRIPTOR* d) {
  const bool sparse = d->Flags & CUDA_ARRAY3D_SPARSE;
  const CUresult st = sparse ? f->sparse_array : f->deferred_array;
  if (st != CUDA_SUCCESS) {
    f->calls.push_back(sparse ? "sparse array refused" : "deferred array refused");
    return st;
  }
  *a = reinterpret_cast<CUarray>(0x40);
  return made(sparse ? "sparse array" : "deferred array");
}
CUresult array_destroy(CUarray) { return gone("destroy array"); }
CUresult requirements(CUDA_ARRAY_MEMORY_REQUIREMENTS* r, CUarray, CUdevice) {
  r->size = std::size_t{SurfaceAlias::kSide} * SurfaceAlias::kSide * 4;
  r->alignment = 2u << 20;
  return CUDA_SUCCESS;
}
CUresult map_array(CUarrayMapInfo* m, unsigned, CUstream) {
  if (m->memOperationType == CU_MEM_OPERATION_TYPE_UNMAP) return gone("unmap array");
  if (f->map_array != CUDA_SUCCESS) {
    f->calls.push_back("map array refused");
    return f->map_array;
  }
  return made("map array");
}
CUresult synchronize(CUstream) { return CUDA_SUCCESS; }
CUresult surface_create(CUsurfObject* s, const CUDA_RESOURCE_DESC* r) {
  EXPECT_EQ(r->resType, CU_RESOURCE_TYPE_ARRAY);
  *s = 0x50;
  return made("surface");
}
CUresult surface_destroy(CUsurfObject) { return gone("destroy surface"); }
CUresult texture_create(CUtexObject* t, const CUDA_RESOURCE_DESC* r, const CUDA_TEXTURE_DESC* d, const CUDA_RESOURCE_VIEW_DESC*) {
  EXPECT_EQ(r->resType, CU_RESOURCE_TYPE_ARRAY);
  EXPECT_EQ(r->res.array.hArray, reinterpret_cast<CUarray>(0x30));  // the surface's own array
  EXPECT_EQ(d->filterMode, CU_TR_FILTER_MODE_POINT);
  EXPECT_EQ(d->flags & CU_TRSF_NORMALIZED_COORDINATES, 0u);
  if (f->texture != CUDA_SUCCESS) {
    f->calls.push_back("texture refused");
    return f->texture;
  }
  *t = 0x60;
  return made("texture");
}
CUresult texture_destroy(CUtexObject) { return gone("destroy texture"); }
CUresult error_name(CUresult r, const char** name) {
  *name = r == CUDA_ERROR_INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE" : r == CUDA_ERROR_NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}

class SurfaceAliasTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api_.cuDeviceGet = device_get;
    api_.cuDeviceGetAttribute = attribute;
    api_.cuMemGetAllocationGranularity = granularity;
    api_.cuMemAddressReserve = reserve;
    api_.cuMemAddressFree = address_free;
    api_.cuMemCreate = create;
    api_.cuMemRelease = release;
    api_.cuMemMap = map;
    api_.cuMemUnmap = unmap;
    api_.cuMemSetAccess = set_access;
    api_.cuMemExportToShareableHandle = export_fd;
    api_.cuImportExternalMemory = import;
    api_.cuDestroyExternalMemory = destroy_external;
    api_.cuExternalMemoryGetMappedMipmappedArray = mipmapped;
    api_.cuMipmappedArrayGetLevel = level;
    api_.cuMipmappedArrayDestroy = destroy_mipmapped;
    api_.cuArray3DCreate = array_create;
    api_.cuArrayDestroy = array_destroy;
    api_.cuArrayGetMemoryRequirements = requirements;
    api_.cuMemMapArrayAsync = map_array;
    api_.cuStreamSynchronize = synchronize;
    api_.cuSurfObjectCreate = surface_create;
    api_.cuSurfObjectDestroy = surface_destroy;
    api_.cuTexObjectCreate = texture_create;
    api_.cuTexObjectDestroy = texture_destroy;
    api_.cuGetErrorName = error_name;
    f = &fake_;
    set_driver_for_testing(&api_);
  }
  void TearDown() override {
    set_driver_for_testing(nullptr);
    f = nullptr;
  }
  // The calls from the first one named `from` on.
  std::vector<std::string> calls_from(const std::string& from) const {
    return {std::find(fake_.calls.begin(), fake_.calls.end(), from), fake_.calls.end()};
  }
  static bool open_fd(int fd) { return fd >= 0 && ::fcntl(fd, F_GETFD) != -1; }
  std::string not_supported(SurfaceBacking b) {
    try {
      SurfaceAlias alias(b, 0, nullptr);
    } catch (const NotSupportedError& e) {
      return e.what();
    }
    ADD_FAILURE() << "the alias was made";
    return {};
  }

  DriverApi api_;
  FakeSurfaceDriver fake_;
};

TEST_F(SurfaceAliasTest, ImportMapsTheArrayFromTheExportedDescriptorAndReleasesSurfaceFirstRangeLast) {
  {
    const SurfaceAlias alias(SurfaceBacking::Import, 0, nullptr);
    EXPECT_EQ(alias.surface(), CUsurfObject{0x50});
    EXPECT_EQ(alias.linear(), CUdeviceptr{0x100000000ull});
    EXPECT_EQ(alias.bytes(), std::size_t{4} << 20);  // 1024 x 1024 x 4 bytes, a granularity multiple
    EXPECT_EQ(alias.route(), "imported external memory");
    EXPECT_EQ(fake_.calls, (std::vector<std::string>{"reserve", "create posix_fd", "map", "access", "export", "import",
                                                     "mipmapped", "surface"}));
    EXPECT_TRUE(open_fd(fake_.exported_fd)) << "the driver owns the imported descriptor: it is not closed";
  }
  EXPECT_EQ(calls_from("destroy surface"), (std::vector<std::string>{"destroy surface", "destroy mipmapped", "destroy external",
                                                                     "unmap", "release", "free"}));
  EXPECT_EQ(fake_.live, 0);
}

// A litmus row's .texref of the surface's memory and its physical aliases: the texture over the same
// array and more linear mappings of the same allocation, made on request, gone before the allocation.
TEST_F(SurfaceAliasTest, ATextureOverTheArrayAndMoreMappingsOfTheAllocationOnRequest) {
  {
    SurfaceAlias alias(SurfaceBacking::Import, 0, nullptr);
    EXPECT_EQ(std::count(fake_.calls.begin(), fake_.calls.end(), "texture"), 0) << "none until asked";
    EXPECT_EQ(alias.texture(), CUtexObject{0x60});
    EXPECT_EQ(alias.texture(), CUtexObject{0x60});  // one object
    EXPECT_EQ(alias.view(0), alias.linear());
    fake_.calls.clear();
    alias.view(1);
    EXPECT_EQ(fake_.calls, (std::vector<std::string>{"reserve", "map", "access"}));
    alias.view(1);
    EXPECT_EQ(fake_.calls.size(), 3u) << "one mapping a view";
  }
  EXPECT_EQ(calls_from("destroy texture"),
            (std::vector<std::string>{"destroy texture", "destroy surface", "destroy mipmapped", "destroy external", "unmap",
                                      "free", "unmap", "release", "free"}));
  EXPECT_EQ(fake_.live, 0);
}

TEST_F(SurfaceAliasTest, ARefusedTextureIsNotSupportedAndTheSurfaceStays) {
  fake_.texture = CUDA_ERROR_NOT_SUPPORTED;
  SurfaceAlias alias(SurfaceBacking::Import, 0, nullptr);
  try {
    alias.texture();
    ADD_FAILURE() << "a texture was made";
  } catch (const NotSupportedError& e) {
    EXPECT_NE(std::string(e.what()).find("cuTexObjectCreate returned CUDA_ERROR_NOT_SUPPORTED"), std::string::npos) << e.what();
  }
  EXPECT_EQ(alias.surface(), CUsurfObject{0x50});
}

TEST_F(SurfaceAliasTest, ARefusedImportIsNotSupportedClosesTheDescriptorAndLeaksNothing) {
  fake_.import = CUDA_ERROR_NOT_SUPPORTED;
  const std::string why = not_supported(SurfaceBacking::Import);
  EXPECT_NE(why.find("cuImportExternalMemory(OPAQUE_FD) returned CUDA_ERROR_NOT_SUPPORTED"), std::string::npos) << why;
  EXPECT_FALSE(open_fd(fake_.exported_fd)) << "a descriptor the driver did not take is ours to close";
  EXPECT_EQ(fake_.live, 0);
}

TEST_F(SurfaceAliasTest, ARefusedArrayIsNotSupportedAndTheImportIsUndone) {
  fake_.mipmapped = CUDA_ERROR_INVALID_VALUE;
  const std::string why = not_supported(SurfaceBacking::Import);
  EXPECT_NE(why.find("cuExternalMemoryGetMappedMipmappedArray(SURFACE_LDST) returned CUDA_ERROR_INVALID_VALUE"),
            std::string::npos) << why;
  EXPECT_EQ(calls_from("mipmapped refused"),
            (std::vector<std::string>{"mipmapped refused", "destroy external", "unmap", "release", "free"}));
  EXPECT_EQ(fake_.live, 0);
}

TEST_F(SurfaceAliasTest, ArrayMapNamesEveryRefusalTheH200Gives) {
  const std::string why = not_supported(SurfaceBacking::ArrayMap);
  // The sparse array refused, the deferred one made; neither a tile pool nor an ordinary allocation takes it.
  EXPECT_NE(why.find("cuArray3DCreate(sparse array | SURFACE_LDST) returned CUDA_ERROR_INVALID_VALUE"), std::string::npos) << why;
  EXPECT_NE(why.find("a tile pool: "), std::string::npos) << why;
  EXPECT_NE(why.find("an ordinary allocation: "), std::string::npos) << why;
  EXPECT_EQ(std::count(fake_.calls.begin(), fake_.calls.end(), "map array refused"), 2);
  EXPECT_EQ(fake_.calls.back(), "destroy array");
  EXPECT_EQ(fake_.live, 0);
}

TEST_F(SurfaceAliasTest, ArrayMapWithoutEitherArrayKindSaysSo) {
  fake_.sparse_attribute = fake_.deferred_attribute = 0;
  const std::string why = not_supported(SurfaceBacking::ArrayMap);
  EXPECT_NE(why.find("sparse arrays: not reported by the device"), std::string::npos) << why;
  EXPECT_NE(why.find("deferred-mapping arrays: not reported by the device"), std::string::npos) << why;
  EXPECT_EQ(fake_.live, 0);
}

TEST_F(SurfaceAliasTest, ArrayMapWhereTheDriverTakesItUnmapsTheTilesBeforeTheArrayGoes) {
  fake_.map_array = CUDA_SUCCESS;
  {
    const SurfaceAlias alias(SurfaceBacking::ArrayMap, 0, nullptr);
    EXPECT_EQ(alias.route(), "deferred-mapping array");
  }
  EXPECT_EQ(calls_from("destroy surface"), (std::vector<std::string>{"destroy surface", "unmap array", "destroy array", "unmap",
                                                                     "release", "free"}));
  EXPECT_EQ(fake_.live, 0);
}

}  // namespace
}  // namespace vmmcheck::vmm
