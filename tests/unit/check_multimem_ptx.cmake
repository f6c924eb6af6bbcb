# Compiles patterns/multicast/kernels.cu to PTX for sm_90 and checks that the multicast kernels hold the three
# multimem instructions (issue: the device code really uses multimem, through libcu++ cuda::ptx).
#   cmake -DNVCC=... -DROOT=... -DOUT=... -P check_multimem_ptx.cmake
execute_process(
  COMMAND ${NVCC} -ptx -arch=sm_90 -std=c++17 --expt-relaxed-constexpr -I${ROOT} ${ROOT}/patterns/multicast/kernels.cu -o ${OUT}
  RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc -ptx patterns/multicast/kernels.cu failed: ${err}")
endif()
file(READ ${OUT} ptx)
foreach(instruction "multimem.st.weak.global.b32" "multimem.red.release.sys.global.add.u32" "multimem.ld_reduce.weak.global.add.u32"
                    "fence.proxy.alias")
  string(FIND "${ptx}" "${instruction}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the PTX of patterns/multicast/kernels.cu has no ${instruction}")
  endif()
  message(STATUS "found ${instruction}")
endforeach()
