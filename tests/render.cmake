# render/: VTK scenes, their image baselines and the Qt 6 widget hosting VTK. Label gui: they
# need an X display (./test.sh runs ctest under xvfb-run; by hand:
# xvfb-run -a -s "-screen 0 1280x1024x24" <test>).
if(RICOCHET_BUILD_GUI)
  ricochet_add_test(NAME test_render_widget SOURCES test_render_widget.cpp LABELS gui
    LIBS ricochet_qtvtk ricochet_scene Qt6::Widgets VTK::RenderingOpenGL2 VTK::ChartsCore VTK::ViewsContext2D
         VTK::RenderingContextOpenGL2 VTK::FiltersSources VTK::InteractionStyle TIMEOUT 120)
  vtk_module_autoinit(TARGETS test_render_widget MODULES VTK::RenderingOpenGL2 VTK::ChartsCore
    VTK::ViewsContext2D VTK::RenderingContextOpenGL2 VTK::InteractionStyle VTK::RenderingFreeType)

  ricochet_add_test(NAME test_render_scene SOURCES test_render_scene.cpp LABELS gui
    LIBS ricochet_scene VTK::RenderingOpenGL2 VTK::IOImage VTK::CommonDataModel TIMEOUT 300)
  vtk_module_autoinit(TARGETS test_render_scene MODULES VTK::RenderingOpenGL2 VTK::IOImage)

  # Image baselines (tests/baselines/*.png) of a few systems' scenes, compared under a threshold.
  # RICOCHET_UPDATE_BASELINES=1 rewrites them (see the top of test_render_baselines.cpp).
  ricochet_add_test(NAME test_render_baselines SOURCES test_render_baselines.cpp LABELS gui
    LIBS ricochet_scene VTK::RenderingOpenGL2 VTK::IOImage VTK::CommonDataModel TIMEOUT 300)
  vtk_module_autoinit(TARGETS test_render_baselines MODULES VTK::RenderingOpenGL2 VTK::IOImage)
endif()
